import StoreSQL

/// One versioned change to the schema, written for each backend.
///
/// Migrations are applied in version order, each exactly once, and recorded in
/// `schema_migrations`. A migration never changes after it has shipped: a new change is a new
/// version.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    let sqlite: String
    let postgres: String

    func script(for dialect: SQLDialect) -> String {
        switch dialect {
        case .sqlite: sqlite
        case .postgres: postgres
        }
    }
}
