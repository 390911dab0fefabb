import CLibPQ
import Concurrency
import StoreSQL

/// A PostgreSQL database behind a pool of connections, for the store's repositories.
///
/// - Threads: every connection lives on a dedicated thread of a ``Concurrency/BlockingPool``, is
///   opened, used and closed there only; the closures given to ``read(_:)`` and ``write(_:)`` run
///   there, never on the Swift concurrency pool, and callers await them without blocking. At most
///   ``Configuration/poolSize`` closures run at once; the rest wait in first-come order. (Why
///   threads of our own: every libpq call blocks its thread for at least a network round trip, and
///   a write holds its connection for a whole transaction; see ``Concurrency/BlockingPool``.)
/// - Reads run in autocommit mode on a connection whose transactions default to read-only, so a
///   write attempted in ``read(_:)`` fails (`25006`).
/// - Writes run in one transaction at the configured isolation level and are retried as a whole on
///   transient conflicts (serialization failure `40001`, deadlock `40P01`, lock not available
///   `55P03`), up to ``Configuration/maxRetries`` times with jittered exponential backoff; then the
///   error surfaces as ``DatabaseError/Kind/retriesExhausted`` with the last conflict's code and message.
/// - Broken connections: a connection the server closed is reopened before its next job. A job that
///   was running when its connection broke fails with ``DatabaseError/Kind/connectionFailed`` and is
///   *not* run again: if the break came during `COMMIT`, the transaction may or may not have been
///   committed, and re-running it could apply it twice. Only a `BEGIN` that fails on a broken
///   connection (nothing was sent yet) is retried at once on a fresh connection.
/// - Ownership: ``close()`` finishes queued work and closes every connection; later calls throw
///   ``DatabaseError/Kind/misuse`` ("database is closed"). Releasing the database without calling
///   ``close()`` stops the workers too, without waiting for them.
public final class PostgresDatabase: SQLDatabase {
    /// How the pool is sized and how writes behave.
    public struct Configuration: Sendable, Hashable {
        /// The isolation level of ``PostgresDatabase/write(_:)`` transactions.
        public enum IsolationLevel: String, Sendable, Hashable {
            /// Each statement sees what was committed before it began; PostgreSQL's default.
            case readCommitted = "READ COMMITTED"
            /// The transaction sees one snapshot; a concurrent update of the same row fails with `40001`.
            case repeatableRead = "REPEATABLE READ"
            /// As if transactions ran one after another; any anomaly fails with `40001` and is retried.
            case serializable = "SERIALIZABLE"
        }

        /// How many connections (and threads) the pool holds. Default 8.
        public var poolSize: Int
        /// How many times a write is run again after a transient conflict. Default 8.
        public var maxRetries: Int
        /// Default ``IsolationLevel/readCommitted``, PostgreSQL's own default.
        public var isolation: IsolationLevel
        /// The backoff before the first retry; each later retry waits up to twice as long, with jitter.
        public var retryBaseDelay: Duration
        /// The longest backoff between two attempts.
        public var retryMaxDelay: Duration
        /// Distinct SQL texts each connection keeps prepared; 0 disables prepared statements.
        public var statementCacheCapacity: Int

        /// A configuration; every parameter has a production default.
        public init(
            poolSize: Int = 8, maxRetries: Int = 8, isolation: IsolationLevel = .readCommitted,
            retryBaseDelay: Duration = .milliseconds(5), retryMaxDelay: Duration = .milliseconds(500),
            statementCacheCapacity: Int = 128
        ) {
            self.poolSize = poolSize
            self.maxRetries = maxRetries
            self.isolation = isolation
            self.retryBaseDelay = retryBaseDelay
            self.retryMaxDelay = retryMaxDelay
            self.statementCacheCapacity = statementCacheCapacity
        }
    }

    /// Always ``SQLDialect/postgres``.
    public let dialect: SQLDialect = .postgres
    /// The configuration the database was opened with.
    public let configuration: Configuration
    private let workers: BlockingPool<PostgresConnection>
    /// Round trips made by the pool's connections, counted after each job.
    private let roundTripCount = Locked(0)

    /// Opens ``Configuration/poolSize`` connections to `url`, each on its own thread.
    ///
    /// - Parameters:
    ///   - url: `postgres://user[:password]@host[:port]/dbname[?param=value&…]` (see
    ///     ``PostgresConnection/init(url:statementCacheCapacity:)``).
    ///   - configuration: pool size, retries, isolation level.
    /// - Throws: ``DatabaseError/Kind/connectionFailed`` (without the password) when a connection
    ///   cannot be opened; ``DatabaseError/Kind/misuse`` for an invalid configuration or a libpq built
    ///   without thread safety.
    public init(url: String, configuration: Configuration = Configuration()) async throws(DatabaseError) {
        guard configuration.poolSize >= 1, configuration.maxRetries >= 0, configuration.retryBaseDelay >= .zero,
            configuration.retryMaxDelay >= configuration.retryBaseDelay
        else {
            throw DatabaseError(
                kind: .misuse, code: "misuse",
                message: "pool size must be at least 1, retries and delays must not be negative")
        }
        guard PQisthreadsafe() == 1 else {
            throw DatabaseError(kind: .misuse, code: "misuse", message: "libpq was built without thread safety")
        }
        self.configuration = configuration
        let capacity = configuration.statementCacheCapacity
        workers = try await BlockingPool.start(name: "PostgresDriver.worker", threads: configuration.poolSize) {
            _ throws(DatabaseError) in
            try PostgresConnection(
                url: url, statementCacheCapacity: capacity,
                sessionSetup:
                    "SET default_transaction_read_only = on; SET default_transaction_isolation = 'repeatable read'")
        }
    }

    deinit {
        // Without close(): the workers finish what is queued, close their connections and end.
        workers.closeWithoutWaiting()
    }

    /// Runs `body` on a pooled connection in autocommit mode and returns its result.
    ///
    /// Each round trip sees the data committed before it started, at one moment: statements sent
    /// together (``PostgresConnection/queryEach(_:)``) share one implicit transaction, which the
    /// session runs at `REPEATABLE READ`, so they read one snapshot — never a basket's row from
    /// before a commit and its lines from after it. (A read-only transaction never fails to
    /// serialize.) Writes are refused by the server (the session is read-only by default); a
    /// transaction `body` leaves open is rolled back.
    /// - Throws: what `body` throws; ``DatabaseError/Kind/connectionFailed`` when no connection to
    ///   the server can be had; ``DatabaseError/Kind/misuse`` after ``close()``.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await run { connection in
            defer {
                if connection.transactionStatus != PQTRANS_IDLE { connection.rollbackQuietly() }
            }
            return try body(connection)
        }
    }

    /// Runs `body` in a transaction and commits it; returns once the commit is durable.
    ///
    /// On a thrown error everything is rolled back and the error rethrown. On a transient conflict
    /// the whole transaction is rolled back and run again (see the type's documentation), so `body`
    /// must have no effect outside the database. `body` must not commit or roll back itself.
    /// - Throws: what `body` throws; ``DatabaseError/Kind/retriesExhausted`` after the last retry;
    ///   ``DatabaseError/Kind/connectionFailed`` when the connection broke (the commit's outcome is
    ///   then unknown); ``DatabaseError/Kind/misuse`` after ``close()``; `CancellationError` when the
    ///   task is cancelled while waiting to retry.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        let begin = "BEGIN ISOLATION LEVEL \(configuration.isolation.rawValue) READ WRITE"
        var retries = 0
        while true {
            let attempt = try await run { connection in
                WriteAttempt.run(on: connection, begin: begin, body: body)
            }
            switch attempt {
            case .committed(let value):
                return value
            case .failed(let error, retryAfter: nil):
                throw error
            case .failed(_, retryAfter: let conflict?):
                guard retries < configuration.maxRetries else {
                    throw DatabaseError(kind: .retriesExhausted, code: conflict.code, message: conflict.message)
                }
                retries += 1
                try await Task.sleep(for: backoff(beforeRetry: retries))
            }
        }
    }

    /// Finishes every queued job, then closes every connection and stops the threads.
    ///
    /// Calls made afterwards throw ``DatabaseError/Kind/misuse``. Calling it again is harmless.
    public func close() async {
        await workers.close()
    }

    /// The wait before retry number `retry` (1-based): a random duration between half and all of
    /// `base × 2^(retry−1)`, capped at the maximum delay.
    func backoff(beforeRetry retry: Int) -> Duration {
        var ceiling = configuration.retryBaseDelay
        for _ in 1..<max(1, retry) where ceiling < configuration.retryMaxDelay {
            ceiling *= 2
        }
        ceiling = min(ceiling, configuration.retryMaxDelay)
        return ceiling * Double.random(in: 0.5...1.0)
    }

    /// Runs `work` on the next free connection's thread and waits for its result.
    ///
    /// The connection is made ready first: reopened when the server closed it, a transaction left
    /// open rolled back. If it cannot be made ready, `work` does not run and the error is thrown.
    private func run<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        do {
            let roundTripCount = self.roundTripCount
            return try await workers.run { connection in
                defer { roundTripCount.withLock { $0 += connection.takeRoundTrips() } }
                try connection.prepareForJob()
                return try work(connection)
            }
        } catch BlockingPoolError.closed {
            throw DatabaseError(kind: .misuse, code: "misuse", message: "database is closed")
        }
    }
}

extension PostgresDatabase: SQLQueueReporting {
    /// Jobs waiting for one of the pool's connections.
    public var waitingJobs: Int { workers.queuedJobCount }

    /// Round trips to the server so far, over every connection of the pool: one per statement
    /// sent alone, one per pipeline of statements (counted once each job is done).
    public var roundTrips: Int? { roundTripCount.withLock { $0 } }
}
