import Foundation
import SQLiteDriver
import StoreSQL

/// What a backup holds, read back from the copy (docs/BEHAVIOUR.md §15).
public struct BackupReport: Hashable, Sendable {
    /// SQLite's `integrity_check` of the copy: `ok`, or its first problem.
    public let integrity: String
    public let orders: Int
    public let customers: Int
    public let products: Int

    public var isSound: Bool { integrity == "ok" }
}

/// Why a backup was not made.
public enum BackupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A PostgreSQL database is backed up with its own tools.
    case notSQLite

    public var description: String {
        switch self {
        case .notSQLite:
            "store backup copies a SQLite database; back up PostgreSQL with pg_dump -Fc (see README)"
        }
    }
}

extension StoreDatabase {
    /// Copies the live SQLite database at `url` to the new file `file` (SQLite's online backup: one
    /// consistent snapshot while the store serves and writes), then opens the copy and checks it.
    ///
    /// - Throws: ``BackupError/notSQLite`` for a PostgreSQL URL, `DatabaseURLError`, or the
    ///   `DatabaseError` of the copy (`file` exists already, the source cannot be read…).
    public static func backUp(url: String, to file: String) async throws -> BackupReport {
        guard case .sqlite(let path) = try DatabaseURL(url) else { throw BackupError.notSQLite }
        try SQLiteBackup.copy(from: path, to: file)
        let copy = try await StoreDatabase.openUnmigrated(url: "sqlite:\(file)")
        do {
            let report = try await copy.sql.read { connection in
                func count(_ table: SQLQuery) throws -> Int {
                    try connection.queryFirst("SELECT COUNT(*) AS n FROM \(table)")?.decode("n", as: Int.self) ?? 0
                }
                let integrity: String
                if case .text(let text) = try connection.queryFirst("PRAGMA integrity_check")?.values.first {
                    integrity = text
                } else {
                    integrity = "no answer"
                }
                return BackupReport(
                    integrity: integrity, orders: try count("orders"), customers: try count("customers"),
                    products: try count("products"))
            }
            await copy.close()
            return report
        } catch {
            await copy.close()
            throw error
        }
    }
}
