import Foundation
import StoreSQL

/// An SQLite database file in WAL mode, served by one writer thread and a pool of reader threads.
///
/// **Threads.** Every connection lives on a dedicated `Foundation.Thread` of its own for its whole
/// life: it is opened there, used there, and closed there. Callers' closures are queued to those
/// threads and their results come back through continuations, so no blocking SQLite call (disk I/O,
/// `fsync`, waiting for a lock) ever runs on the Swift concurrency pool, and every connection is used
/// by exactly one thread, as SQLite's multi-thread mode requires. Dedicated threads rather than
/// dispatch queues make that confinement explicit and let the writer wait for, then take, every queued
/// write at once, which group commit needs; the cost is a fixed `1 + readerCount` threads.
///
/// **Writes (group commit).** The writer takes every queued write (up to
/// ``Configuration/maxBatchSize``) and runs them in one `BEGIN IMMEDIATE … COMMIT` transaction, each
/// inside its own savepoint. A write whose closure throws is rolled back to its savepoint and fails
/// alone; the others go on. So does a write that leaves a deferred foreign key unresolved (checked
/// after each write), which would otherwise make the shared `COMMIT` fail. Callers are resumed only after `COMMIT` has returned, so a `write` that
/// returns is durable (with the default `synchronous=FULL`), and one commit (one `fsync`) serves the
/// whole batch. If SQLite rolls back the whole transaction on its own (for example after
/// `SQLITE_FULL`, `SQLITE_IOERR` or an `OR ROLLBACK` conflict), the write that hit it fails and the
/// writes already run are run again in a fresh transaction; this is why closures given to `write` must
/// be re-runnable, as ``StoreSQL/SQLDatabase/write(_:)`` requires. A busy `BEGIN` or `COMMIT` is
/// retried a bounded number of times with a short back-off, then the writes fail with
/// `.retriesExhausted`. If `COMMIT` fails, every write that was to be committed fails with its error
/// (writes that had already failed keep their own error) and nothing of the batch is kept. A closure may not run `BEGIN`, `COMMIT` or `ROLLBACK` (they are
/// refused when prepared, with a `.misuse` error); savepoints of its own are fine.
///
/// **Reads.** Reader connections are `query_only`, so a write attempted in ``read(_:)`` fails with a
/// `.misuse` error. A read sees every write whose `write` call has returned. A closure may open a
/// transaction for a consistent snapshot; one left open is rolled back after the closure.
///
/// **Closing.** ``close()`` lets the queued work finish, then closes every connection; afterwards
/// every call fails with a `.misuse` `DatabaseError` ("database is closed"). Releasing the last
/// reference without `close()` also drains and closes, in the background.
///
/// Cancelling the task that called `read` or `write` does not withdraw a job already queued: it runs,
/// and (for a write) commits, as if the caller were still waiting.
public final class SQLiteDatabase: SQLDatabase {
    /// How the database is opened and served.
    public struct Configuration: Sendable, Hashable {
        /// Reader connections (and threads); at least 1.
        public var readerCount: Int
        /// `PRAGMA synchronous` on the writer: FULL (durable commits) unless a benchmark asks for NORMAL.
        public var synchronous: SQLiteSynchronousMode
        /// How long a connection waits for a lock held by another process before failing as busy.
        public var busyTimeout: Duration
        /// The most write jobs committed by one transaction; at least 1.
        public var maxBatchSize: Int
        /// How many times a transient failure (busy) is tried, for `BEGIN`/`COMMIT` and for a job,
        /// before the write fails with `.retriesExhausted`; at least 1.
        public var transientAttemptLimit: Int
        /// Prepared statements kept per connection.
        public var statementCacheCapacity: Int
        /// How often a connection of its own copies the write-ahead log into the database file;
        /// `nil` leaves it to SQLite, which then checkpoints inside a commit now and then (that
        /// commit, and every write batched behind it, waits for the copy and its `fsync`).
        public var checkpointInterval: Duration?

        /// A configuration; the defaults suit the store: 4 readers, `synchronous=FULL`, a 5 s busy
        /// timeout, batches of up to 128 writes, 3 attempts on busy, 64 cached statements.
        public init(
            readerCount: Int = 4, synchronous: SQLiteSynchronousMode = .full, busyTimeout: Duration = .seconds(5),
            maxBatchSize: Int = 128, transientAttemptLimit: Int = 3, statementCacheCapacity: Int = 64,
            checkpointInterval: Duration? = .milliseconds(250)
        ) {
            self.checkpointInterval = checkpointInterval
            self.readerCount = readerCount
            self.synchronous = synchronous
            self.busyTimeout = busyTimeout
            self.maxBatchSize = maxBatchSize
            self.transientAttemptLimit = transientAttemptLimit
            self.statementCacheCapacity = statementCacheCapacity
        }
    }

    /// The database file.
    public let path: String
    /// The configuration the database was opened with.
    public let configuration: Configuration

    private let writeQueue = JobQueue<WriteJob>()
    private let readQueue = JobQueue<ReadJob>()
    private let threads = ThreadGroup()
    private let writeStatistics = Guarded(SQLiteWriteStatistics())
    /// Set by ``close()`` to stop the checkpointer.
    private let stopped = Guarded(false)

    /// Always ``StoreSQL/SQLDialect/sqlite``.
    public var dialect: SQLDialect { .sqlite }

    /// Opens the database file at `path` (creating it if needed) with one writer and
    /// `configuration.readerCount` readers, each on its own thread.
    ///
    /// Blocks the calling thread until every connection is open and configured (from async code,
    /// prefer ``open(path:configuration:)``). The parent directory must exist. Throws a
    /// `DatabaseError` when the path cannot be opened (`.connectionFailed`), the file is not a database
    /// (`.corrupt`), a setting does not read back as asked, or the configuration is invalid
    /// (`.misuse`); every connection already opened is closed and every thread has ended by then.
    public init(path: String, configuration: Configuration = Configuration()) throws(DatabaseError) {
        guard configuration.readerCount >= 1, configuration.maxBatchSize >= 1,
            configuration.transientAttemptLimit >= 1, configuration.statementCacheCapacity >= 0,
            configuration.busyTimeout >= .zero
        else {
            throw .driverMisuse(
                "invalid configuration: readerCount, maxBatchSize and transientAttemptLimit must be at least 1, "
                    + "statementCacheCapacity and busyTimeout not negative")
        }
        self.path = path
        self.configuration = configuration

        // The writer first: it switches the file to WAL, which the readers then expect.
        let writerOptions = SQLiteConnection.Options(
            role: .writer, synchronous: configuration.synchronous, busyTimeout: configuration.busyTimeout,
            statementCacheCapacity: configuration.statementCacheCapacity)
        let writerStartup = StartupReports()
        startWriter(options: writerOptions, startup: writerStartup)
        var failure = writerStartup.waitForFailure(expecting: 1)

        if failure == nil, let interval = configuration.checkpointInterval {
            let checkpointerStartup = StartupReports()
            startCheckpointer(every: interval, options: writerOptions, startup: checkpointerStartup)
            failure = checkpointerStartup.waitForFailure(expecting: 1)
        }
        if failure == nil {
            var readerOptions = writerOptions
            readerOptions.role = .reader
            let readerStartup = StartupReports()
            for number in 1...configuration.readerCount {
                startReader(number: number, options: readerOptions, startup: readerStartup)
            }
            failure = readerStartup.waitForFailure(expecting: configuration.readerCount)
        }
        if let failure {
            writeQueue.close()
            readQueue.close()
            stopped.withLock { $0 = true }
            threads.blockUntilAllExited()
            throw failure
        }
    }

    /// Opens the database like ``init(path:configuration:)``, without blocking the caller's thread.
    public static func open(
        path: String, configuration: Configuration = Configuration()
    ) async throws(DatabaseError) -> SQLiteDatabase {
        let result: Result<SQLiteDatabase, DatabaseError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    returning: Result { () throws(DatabaseError) in
                        try SQLiteDatabase(path: path, configuration: configuration)
                    })
            }
            thread.name = "SQLiteDriver.open"
            thread.start()
        }
        return try result.get()
    }

    deinit {
        // Without close(): the threads drain what is queued, close their connections and end.
        writeQueue.close()
        readQueue.close()
    }

    // MARK: - SQLDatabase

    /// Runs `body` on a reader connection, on a reader thread, and returns its result.
    ///
    /// The connection is `query_only`: any write fails with a `.misuse` error. Throws what `body`
    /// throws, or `.misuse` ("database is closed") after ``close()``.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let job = ReadJob { connection in
                continuation.resume(with: Result { try body(connection) })
            }
            if !readQueue.enqueue(job) { continuation.resume(throwing: DatabaseError.databaseClosed) }
        }
    }

    /// Runs `body` inside a transaction on the writer thread and returns once it is committed.
    ///
    /// `body` may be batched with other writes into one transaction (each in its own savepoint) and may
    /// be run more than once (see the type's documentation); it must have no effect outside the
    /// database. Throws what `body` throws (its writes rolled back), the `COMMIT`'s error if the commit
    /// failed, `.retriesExhausted` after repeated busy failures, or `.misuse` after ``close()``.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let job = WriteJob(
                attempt: { connection in
                    let value = try body(connection)
                    return { continuation.resume(returning: value) }
                },
                fail: { error in continuation.resume(throwing: error) })
            if !writeQueue.enqueue(job) { continuation.resume(throwing: DatabaseError.databaseClosed) }
        }
    }

    /// Lets queued reads and writes finish, then closes every connection and ends every thread.
    ///
    /// Calls made after `close()` has begun fail with `.misuse` ("database is closed"). Calling it again
    /// is harmless.
    public func close() async {
        writeQueue.close()
        readQueue.close()
        stopped.withLock { $0 = true }
        await threads.allExited()
    }

    // MARK: - Inspection

    /// Counters of the writer: commits against jobs show how well writes are being batched.
    public func statistics() -> SQLiteWriteStatistics {
        var statistics = writeStatistics.withLock { $0 }
        statistics.queuedJobs = writeQueue.count
        return statistics
    }

    /// The settings the writer connection reports (read back with `PRAGMA`s, in a write job).
    public func writerSettings() async throws -> SQLiteSettings {
        try await write { connection in try Self.sqliteConnection(connection).settings() }
    }

    /// The settings a reader connection reports (read back with `PRAGMA`s).
    public func readerSettings() async throws -> SQLiteSettings {
        try await read { connection in try Self.sqliteConnection(connection).settings() }
    }

    // MARK: - Threads

    /// Starts a thread that opens a connection of its own, reports to `startup` whether it could,
    /// then runs `body` with it; the connection is closed when `body` returns, on that thread.
    private func startConnectionThread(
        named name: String, options: SQLiteConnection.Options, startup: StartupReports,
        _ body: @escaping @Sendable (SQLiteConnection) -> Void
    ) {
        let path = path
        threads.start(named: name) {
            let connection: SQLiteConnection
            do throws(DatabaseError) {
                connection = try SQLiteConnection(path: path, options: options)
            } catch {
                startup.report(error)
                return
            }
            startup.report(nil)
            body(connection)
        }
    }

    private func startWriter(options: SQLiteConnection.Options, startup: StartupReports) {
        let queue = writeQueue
        let statistics = writeStatistics
        let batchSize = configuration.maxBatchSize
        let attemptLimit = configuration.transientAttemptLimit
        let checkpointsApart = configuration.checkpointInterval != nil
        startConnectionThread(named: "SQLiteDriver.writer", options: options, startup: startup) { connection in
            if checkpointsApart { connection.disableAutomaticCheckpoints() }
            let committer = GroupCommitter(connection: connection, attemptLimit: attemptLimit, statistics: statistics)
            while true {
                let batch = queue.take(upTo: batchSize)
                if batch.isEmpty { break }
                committer.run(batch)
            }
        }
    }

    /// A thread with its own connection that checkpoints the write-ahead log every `interval`, so
    /// that no commit ever waits for a checkpoint (the writer's automatic ones are turned off).
    private func startCheckpointer(every interval: Duration, options: SQLiteConnection.Options, startup: StartupReports)
    {
        let stopped = stopped
        let microseconds = UInt32(
            clamping: interval.components.seconds * 1_000_000 + interval.components.attoseconds / 1_000_000_000_000)
        startConnectionThread(named: "SQLiteDriver.checkpointer", options: options, startup: startup) { connection in
            while !stopped.withLock({ $0 }) {
                usleep(microseconds)
                connection.checkpoint()
            }
            connection.checkpoint()
        }
    }

    private func startReader(number: Int, options: SQLiteConnection.Options, startup: StartupReports) {
        let queue = readQueue
        let name = "SQLiteDriver.reader.\(number)"
        startConnectionThread(named: name, options: options, startup: startup) { connection in
            while let job = queue.take(upTo: 1).first {
                job.run(connection)
                connection.rollbackIfInTransaction()
            }
        }
    }

    private static func sqliteConnection(_ connection: any SQLConnection) throws(DatabaseError) -> SQLiteConnection {
        guard let connection = connection as? SQLiteConnection else {
            throw .driverMisuse("not an SQLite connection")
        }
        return connection
    }
}

/// A caller's read, queued for a reader thread.
struct ReadJob: Sendable {
    /// Runs the caller's closure on the reader connection and reports its result.
    let run: @Sendable (SQLiteConnection) -> Void
}

/// What the connection threads report once they have tried to open their connection.
final class StartupReports: Sendable {
    private let reports = Guarded([DatabaseError?]())

    func report(_ failure: DatabaseError?) {
        reports.withLock(wake: .all) { $0.append(failure) }
    }

    /// Blocks until `count` threads have reported; the first failure, if any.
    func waitForFailure(expecting count: Int) -> DatabaseError? {
        reports.wait { reports in
            guard reports.count >= count else { return nil }
            return .some(reports.lazy.compactMap { $0 }.first)
        }
    }
}

/// The driver's running threads, so closing can wait until every connection is closed.
final class ThreadGroup: Sendable {
    private struct State {
        var running = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Guarded(State())

    /// Starts a thread running `body`; the thread counts as running until `body` has returned (and so
    /// released its connection).
    func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.running += 1 }
        let thread = Thread { [self] in
            body()
            exited()
        }
        thread.name = name
        thread.start()
    }

    /// Suspends until every thread has ended.
    func allExited() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if state.running == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Blocks the calling thread until every thread has ended (for the synchronous initializer).
    func blockUntilAllExited() {
        state.wait { $0.running == 0 ? () : nil }
    }

    private func exited() {
        let waiters = state.withLock(wake: .all) { state in
            state.running -= 1
            guard state.running == 0 else { return [CheckedContinuation<Void, Never>]() }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
