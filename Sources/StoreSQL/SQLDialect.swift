/// The database a piece of SQL is written for.
///
/// Queries are written once, with binds interpolated; the dialect decides how a bind is spelled
/// (`?1` for SQLite, `$1` for PostgreSQL). Anything else that differs (the DDL of migrations) is
/// chosen explicitly by the caller.
public enum SQLDialect: String, Sendable, Hashable {
    case sqlite
    case postgres

    /// The placeholder for the bind at `position` (1-based).
    public func placeholder(_ position: Int) -> String {
        let spelled = self == .sqlite ? Self.sqlitePlaceholders : Self.postgresPlaceholders
        if spelled.indices.contains(position) { return spelled[position] }
        switch self {
        case .sqlite: return "?\(position)"
        case .postgres: return "$\(position)"
        }
    }

    /// `?0`…`?64` and `$0`…`$64`, spelled once: most statements have fewer binds.
    private static let sqlitePlaceholders = (0...64).map { "?\($0)" }
    private static let postgresPlaceholders = (0...64).map { "$\($0)" }
}
