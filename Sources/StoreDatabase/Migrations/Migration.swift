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
    /// Steps a script cannot spell, run after the script on SQLite, in the same transaction (for
    /// instance a `PRAGMA` whose value is read from the database first).
    let sqliteSteps: (@Sendable (any SQLConnection) throws -> Void)?

    init(
        version: Int, name: String, sqlite: String, postgres: String,
        sqliteSteps: (@Sendable (any SQLConnection) throws -> Void)? = nil
    ) {
        self.version = version
        self.name = name
        self.sqlite = sqlite
        self.postgres = postgres
        self.sqliteSteps = sqliteSteps
    }

    func script(for dialect: SQLDialect) -> String {
        switch dialect {
        case .sqlite: sqlite
        case .postgres: postgres
        }
    }

    /// Runs the migration on `connection`, inside the migrator's transaction.
    func apply(on connection: any SQLConnection) throws {
        let script = script(for: connection.dialect)
        if !script.isEmpty { try connection.executeScript(script) }
        if connection.dialect == .sqlite, let sqliteSteps { try sqliteSteps(connection) }
    }
}
