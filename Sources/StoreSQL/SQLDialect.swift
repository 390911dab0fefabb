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
        switch self {
        case .sqlite: "?\(position)"
        case .postgres: "$\(position)"
        }
    }
}
