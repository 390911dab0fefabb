import CSQLite
import Foundation
import StoreSQL

/// A consistent copy of a live SQLite database through SQLite's online backup API, while other
/// connections — other processes too — go on reading and writing it.
///
/// The copy is made in one `sqlite3_backup_step` over every page, so it is one read snapshot of the
/// source: in WAL mode a reader blocks no writer, and a write committed meanwhile is simply not in
/// the copy (a step over part of the pages would start again after each such write). The copy is
/// written to `<destination>.partial`, committed (and synced) by SQLite, and only then renamed to
/// `destination`, so a crash leaves no half-written file under the name asked for.
public enum SQLiteBackup {
    /// How long a step waits for a lock before it is tried again, and how many times.
    static let retryPause: TimeInterval = 0.01
    static let retries = 1_000

    /// Copies the database file at `source` to a new file at `destination`.
    ///
    /// - Throws: `DatabaseError` — `.driverMisuse` when `destination` exists already; SQLite's error
    ///   when the source cannot be opened or read, or the copy cannot be written.
    public static func copy(from source: String, to destination: String) throws(DatabaseError) {
        let files = FileManager.default
        guard !files.fileExists(atPath: destination) else {
            throw .driverMisuse("\(destination) exists already: a backup never overwrites a file")
        }
        let partial = destination + ".partial"
        for suffix in ["", "-journal", "-wal", "-shm"] { try? files.removeItem(atPath: partial + suffix) }

        let sourceHandle = try open(source, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX)
        defer { sqlite3_close_v2(sourceHandle) }
        sqlite3_busy_timeout(sourceHandle, 5_000)
        let destinationHandle = try open(
            partial, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX)
        var destinationOpen = true
        defer { if destinationOpen { sqlite3_close_v2(destinationHandle) } }

        guard let backup = sqlite3_backup_init(destinationHandle, "main", sourceHandle, "main") else {
            throw .sqlite(sqlite3_extended_errcode(destinationHandle), handle: destinationHandle)
        }
        var step = SQLITE_OK
        var attempts = 0
        repeat {
            step = sqlite3_backup_step(backup, -1)
            if step == SQLITE_BUSY || step == SQLITE_LOCKED {
                attempts += 1
                Thread.sleep(forTimeInterval: retryPause)
            }
        } while (step == SQLITE_OK || step == SQLITE_BUSY || step == SQLITE_LOCKED) && attempts < retries
        let finished = sqlite3_backup_finish(backup)
        guard step == SQLITE_DONE, finished == SQLITE_OK else {
            let code = step == SQLITE_DONE ? finished : step
            sqlite3_close_v2(destinationHandle)
            destinationOpen = false
            try? files.removeItem(atPath: partial)
            throw .sqlite(code, message: "the backup did not complete")
        }
        sqlite3_close_v2(destinationHandle)
        destinationOpen = false
        do {
            try files.moveItem(atPath: partial, toPath: destination)
        } catch {
            throw .driverMisuse("cannot name the copy \(destination): \(error)")
        }
    }

    private static func open(_ path: String, flags: Int32) throws(DatabaseError) -> OpaquePointer {
        _ = SQLiteConnection.memoryStatisticsAreOff
        var handle: OpaquePointer?
        let resultCode = sqlite3_open_v2(path, &handle, flags, nil)
        guard let handle else { throw .sqlite(SQLITE_NOMEM, message: "cannot allocate a connection") }
        guard resultCode == SQLITE_OK else {
            let code = sqlite3_extended_errcode(handle)
            let message = sqlite3_errmsg(handle).map { String(cString: $0) } ?? "cannot open the database"
            sqlite3_close_v2(handle)
            throw .sqlite(code, message: "\(message) (path: \(path))")
        }
        return handle
    }
}
