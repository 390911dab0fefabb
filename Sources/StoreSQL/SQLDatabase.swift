/// A database the store can read from and write to, whatever the backend.
///
/// The closures run on the driver's own threads (never on the Swift concurrency pool), with a
/// connection that is theirs alone for the duration of the call — except a ``lookup(_:)``, which a
/// driver may run at once where it is asked.
public protocol SQLDatabase: Sendable {
    var dialect: SQLDialect { get }

    /// Runs `body` on a connection that sees only committed data, each moment whole: the statements
    /// of one ``SQLConnection/queryEach(_:)`` see one snapshot (a driver may keep one for all of
    /// `body`), so a row and its lines read together never straddle a commit. Writes made here are
    /// not allowed, nor may `body` begin or end a transaction.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T

    /// Runs `body` like ``read(_:)``, for a read of a few rows found by their keys (a session, a
    /// basket): one that takes microseconds and waits for nothing but memory and a local file.
    ///
    /// A driver whose connections are in the same process may run it on the calling thread, which
    /// saves handing it to a thread of its own and back — two thread wake-ups, more than such a read
    /// costs. `body` may be run twice (the second time on the driver's own threads), so it must only
    /// read. The default is ``read(_:)``.
    func lookup<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T

    /// Runs `body` inside a transaction and commits it before returning.
    ///
    /// If `body` throws, everything it wrote is rolled back and the error is rethrown. When the
    /// database reports a transient conflict (busy, serialization failure, deadlock) the whole
    /// transaction is run again a bounded number of times, so `body` must have no effect outside the
    /// database; after the last attempt the error surfaces as ``DatabaseError/Kind/retriesExhausted``.
    /// The call returns only once the commit is durable.
    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T

    /// Finishes queued work and closes every connection. Calls made afterwards fail.
    func close() async
}

extension SQLDatabase {
    public func lookup<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await read(body)
    }
}

/// A database that can say how many jobs wait for one of its connections (for metrics).
public protocol SQLQueueReporting: Sendable {
    /// Jobs queued for a connection now, not yet running.
    var waitingJobs: Int { get }
    /// Round trips made to a database server so far, or `nil` for a database in the same process.
    var roundTrips: Int? { get }
    /// Durable commits made so far and the writes they carried, for a database that commits
    /// several writes at once (SQLite's group commit); `nil` otherwise.
    var groupCommits: (commits: Int, writes: Int)? { get }
    /// Lookups (``SQLDatabase/lookup(_:)``) run at once on their callers' threads, and those handed
    /// to the driver's own threads, for a database that can run them where they are asked; `nil`
    /// otherwise.
    var lookups: (onCaller: Int, handedOn: Int)? { get }
}

extension SQLQueueReporting {
    public var roundTrips: Int? { nil }
    public var groupCommits: (commits: Int, writes: Int)? { nil }
    public var lookups: (onCaller: Int, handedOn: Int)? { nil }
}
