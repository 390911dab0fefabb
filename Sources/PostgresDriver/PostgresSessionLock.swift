import CLibPQ
import Concurrency
import StoreSQL

/// A PostgreSQL session advisory lock held on a connection of its own for as long as the holder
/// lives: the server releases it the moment that connection ends — when the process exits or is
/// killed (the kernel closes its socket), or, for a host that vanished, once the server's TCP
/// keepalives give up on it (set here to 5 s idle, then every 2 s, 3 probes, and a 10 s user
/// timeout, so within about 11 seconds).
///
/// The lock is the two-key form, `pg_advisory_lock(classID, objectID)`: `classID` names what the
/// locks are for, `objectID` is picked at random among the free ones. Anyone may ask whether it is
/// still held, without taking it, by reading `pg_locks` (``isHeldSQL``).
///
/// Session advisory locks are reentrant within a session and are not tied to transactions, so the
/// connection is used for nothing else (one thread, no statement cache, never in a pool).
public final class PostgresSessionLock: Sendable {
    /// What the locks of this kind are for: the first key.
    public let classID: Int32
    /// This holder's own key, positive.
    public let objectID: Int32

    private let worker: BlockingPool<PostgresConnection>

    private init(classID: Int32, objectID: Int32, worker: BlockingPool<PostgresConnection>) {
        self.classID = classID
        self.objectID = objectID
        self.worker = worker
    }

    /// The session settings of the lock's connection: the server notices a vanished client within
    /// seconds (ignored over a Unix socket, where there is nothing to probe).
    static let sessionSetup =
        "SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3; "
        + "SET tcp_user_timeout = 10000"

    /// Opens a connection and takes a lock of kind `classID` under a random positive key nobody
    /// holds.
    ///
    /// - Throws: ``DatabaseError`` when the connection cannot be opened or the lock cannot be
    ///   taken (after 16 keys that were all held, which only a bad random source would cause).
    public static func acquire(url: String, classID: Int32) async throws -> PostgresSessionLock {
        let worker = try await BlockingPool<PostgresConnection>.start(name: "PostgresDriver.sessionLock", threads: 1) {
            _ throws(DatabaseError) in
            try PostgresConnection(url: url, statementCacheCapacity: 0, sessionSetup: sessionSetup)
        }
        do {
            let key = try await worker.run { connection throws(DatabaseError) -> Int32 in
                for _ in 0..<16 {
                    let candidate = Int32.random(in: 1...Int32.max)
                    if try Self.tryLock(classID: classID, objectID: candidate, on: connection) { return candidate }
                }
                throw DatabaseError(kind: .misuse, code: "misuse", message: "no free advisory lock key was found")
            }
            return PostgresSessionLock(classID: classID, objectID: key, worker: worker)
        } catch {
            await worker.close()
            throw error
        }
    }

    /// Whether the lock is held now. A connection that broke is opened again and the lock taken
    /// again under the same key (the server let it go when the connection ended; another holder
    /// may have taken over what it guarded meanwhile, which the lock's users must allow for). A
    /// connection that lives but no longer holds it — its last attempt to take it again found the
    /// key still held, for instance by the ended session the server had not yet noticed — tries
    /// again.
    ///
    /// - Returns: `false` when the server cannot be reached or the key is held by someone else.
    public func verify() async -> Bool {
        let (classID, objectID) = (self.classID, self.objectID)
        let held = try? await worker.run { connection throws(DatabaseError) -> Bool in
            if connection.isConnected,
                let count = try? connection.queryFirst(
                    """
                    SELECT COUNT(*) AS held FROM pg_locks
                    WHERE pid = pg_backend_pid() AND locktype = 'advisory' AND granted
                      AND classid = \(Int64(classID)) AND objid = \(Int64(objectID)) AND objsubid = 2
                    """)?.decode("held", as: Int64.self)
            {
                if count == 1 { return true }
                return try Self.tryLock(classID: classID, objectID: objectID, on: connection)
            }
            try connection.reconnect()
            return try Self.tryLock(classID: classID, objectID: objectID, on: connection)
        }
        return held ?? false
    }

    /// Ends the connection, and with it the lock.
    public func close() async {
        await worker.close()
    }

    private static func tryLock(
        classID: Int32, objectID: Int32, on connection: PostgresConnection
    ) throws(DatabaseError) -> Bool {
        let row = try connection.queryFirst(
            "SELECT pg_try_advisory_lock(\(Int64(classID))::int4, \(Int64(objectID))::int4) AS taken")
        return try row?.decode("taken", as: Int64.self) == 1
    }

    /// A condition, in SQL, that is true while a lock of kind `classID` under the key in `column`
    /// (an integer column or expression) is held by anyone on this database.
    public static func isHeld(classID: Int32, column: String) -> SQLQuery {
        SQLQuery(
            unsafeSQL: """
                EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2 \
                AND classid = \(classID) AND objid = \(column) \
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))
                """)
    }
}
