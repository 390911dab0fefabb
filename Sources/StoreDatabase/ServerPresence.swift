import Concurrency
import Foundation
import PostgresDriver
import StoreSQL

/// A server's presence in a PostgreSQL database shared by several servers: a session advisory lock
/// on a connection of its own, held for as long as the process lives (``PostgresSessionLock``).
///
/// The server writes its presence key (``holder``) into each pending payment attempt and refund it
/// works on. Another server may take a pending one over as soon as the lock under that key is gone
/// — the moment the holder's process dies, since the kernel closes its connection, or within about
/// 11 seconds for a host that vanished (TCP keepalives) — instead of waiting out the lease. The
/// lease still bounds how long a *living* server may hold one.
///
/// Taking over early is safe whatever the timing: the new holder asks the provider with the same
/// key (a charge or a refund is idempotent there, and a lookup closes a key the provider never saw),
/// and an outcome is recorded only while the row is still pending. The lock only decides who works
/// on a row, never what it comes to.
///
/// SQLite needs none: one server uses the file, and it frees every lease when it starts.
public final class ServerPresence: Sendable {
    /// The first key of every presence lock: "STOR".
    public static let lockClass: Int32 = 0x5354_4F52

    private let lock: PostgresSessionLock
    private let watch: Task<Void, Never>
    private let lastCheck: Locked<Bool>

    /// This server's key, written into the rows it holds.
    public var holder: Int64 { Int64(lock.objectID) }

    /// Whether the lock was held at its last check (taken at start; checked every interval). While
    /// it is not, other servers may take this server's pending rows over: it stays safe, but an
    /// operator wants to know (`store_presence_held` in `/metrics`).
    public var isHeld: Bool { lastCheck.withLock { $0 } }

    private init(lock: PostgresSessionLock, checkEvery interval: Duration) {
        self.lock = lock
        let lastCheck = Locked(true)
        self.lastCheck = lastCheck
        // A broken connection loses the lock: take it again (same key) as soon as the database
        // answers, so that this server's rows do not look abandoned for longer than needed.
        watch = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { break }
                _ = await Self.check(lock, noting: lastCheck)
            }
        }
    }

    /// Takes this server's presence lock in the PostgreSQL database at `url`; `nil` for SQLite.
    ///
    /// - Parameter interval: how often the lock is checked (and taken again after a broken
    ///   connection).
    /// - Throws: ``DatabaseURLError`` for a URL that is not a database's; ``DatabaseError`` when the
    ///   connection cannot be opened.
    public static func start(
        url: String, checkEvery interval: Duration = .seconds(1)
    ) async throws
        -> ServerPresence?
    {
        guard case .postgres(let url) = try DatabaseURL(url) else { return nil }
        let lock = try await PostgresSessionLock.acquire(url: url, classID: lockClass)
        return ServerPresence(lock: lock, checkEvery: interval)
    }

    /// Whether the lock is held now (taken again first if its connection broke).
    public func verify() async -> Bool {
        await Self.check(lock, noting: lastCheck)
    }

    /// Checks the lock (taking it again when it can) and notes what the check found for ``isHeld``.
    private static func check(_ lock: PostgresSessionLock, noting lastCheck: Locked<Bool>) async -> Bool {
        let held = await lock.verify()
        lastCheck.withLock { $0 = held }
        return held
    }

    /// Gives the presence up: rows this server still holds may be taken over at once.
    public func close() async {
        watch.cancel()
        await lock.close()
    }
}

/// The condition under which a pending attempt or refund may be taken over by a caller whose
/// presence key is `holder`: its lease ran out, or (on PostgreSQL) the server whose key it carries
/// is no longer present.
struct Takeover: Sendable {
    /// The caller's presence key, or `nil` for a caller without one.
    let holder: Int64?

    /// The condition, in SQL, on a row with columns `lease_expires_at` and `holder` (of `table`
    /// when the query joins several).
    func isFree(now: Date, dialect: SQLDialect, table: String? = nil) -> SQLQuery {
        let prefix = table.map { "\($0)." } ?? ""
        let lease = SQLQuery(unsafeSQL: "\(prefix)lease_expires_at")
        guard dialect == .postgres else { return "\(lease) <= \(now.unixMilliseconds)" }
        let column = "\(prefix)holder"
        let other: SQLQuery = holder.map { " AND \(unsafeSQL: column) <> \($0)" } ?? ""
        let present = PostgresSessionLock.isHeld(classID: ServerPresence.lockClass, column: column)
        return """
            (\(lease) <= \(now.unixMilliseconds) OR (\(unsafeSQL: column) IS NOT NULL\(other) AND NOT \(present)))
            """
    }
}
