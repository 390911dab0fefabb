/// A database the store can read from and write to, whatever the backend.
///
/// The closures run on the driver's own threads (never on the Swift concurrency pool), with a
/// connection that is theirs alone for the duration of the call.
public protocol SQLDatabase: Sendable {
    var dialect: SQLDialect { get }

    /// Runs `body` on a connection that sees only committed data. No transaction is opened unless
    /// `body` opens one; writes made here are not allowed.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T

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

/// A database that can say how many jobs wait for one of its connections (for metrics).
public protocol SQLQueueReporting: Sendable {
    /// Jobs queued for a connection now, not yet running.
    var waitingJobs: Int { get }
    /// Round trips made to a database server so far, or `nil` for a database in the same process.
    var roundTrips: Int? { get }
    /// Durable commits made so far and the writes they carried, for a database that commits
    /// several writes at once (SQLite's group commit); `nil` otherwise.
    var groupCommits: (commits: Int, writes: Int)? { get }
}

extension SQLQueueReporting {
    public var roundTrips: Int? { nil }
    public var groupCommits: (commits: Int, writes: Int)? { nil }
}
