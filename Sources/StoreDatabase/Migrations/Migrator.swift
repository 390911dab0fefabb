import Foundation
import StoreSQL

/// Brings a database's schema up to date at start.
///
/// Safe to run on every start and from several servers at once: everything happens in one
/// transaction, serialized by the database (SQLite's write lock; a transaction-scoped advisory
/// lock on PostgreSQL), and a version already recorded is never applied again.
public enum Migrator {
    /// The arbitrary key of the advisory lock that serializes migrations on PostgreSQL.
    static let postgresLockKey: Int64 = 0x0_5701_2E5C

    /// Applies every migration of `migrations` not yet recorded; returns the versions applied now.
    @discardableResult
    public static func migrate(
        _ database: any SQLDatabase, migrations: [Migration] = Schema.migrations, now: Date = Date()
    ) async throws -> [Int] {
        let ordered = migrations.sorted { $0.version < $1.version }
        return try await database.write { connection in
            try connection.executeScript(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version BIGINT PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at BIGINT NOT NULL
                )
                """)
            if connection.dialect == .postgres {
                _ = try connection.query("SELECT pg_advisory_xact_lock(\(postgresLockKey))")
            }
            let applied = Set(
                try connection.query("SELECT version FROM schema_migrations").map {
                    try $0.decode("version", as: Int.self)
                })
            var appliedNow: [Int] = []
            for migration in ordered where !applied.contains(migration.version) {
                try migration.apply(on: connection)
                try connection.execute(
                    """
                    INSERT INTO schema_migrations (version, name, applied_at)
                    VALUES (\(migration.version), \(migration.name), \(now.unixMilliseconds))
                    """)
                appliedNow.append(migration.version)
            }
            return appliedNow
        }
    }

    /// The versions recorded as applied, in order.
    public static func appliedVersions(_ database: any SQLDatabase) async throws -> [Int] {
        try await database.read { connection in
            try connection.query("SELECT version FROM schema_migrations ORDER BY version").map {
                try $0.decode("version", as: Int.self)
            }
        }
    }
}
