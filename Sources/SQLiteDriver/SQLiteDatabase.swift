import Concurrency
import Foundation
import StoreSQL

/// An SQLite database file in WAL mode, served by one writer thread and a pool of reader threads.
///
/// **Threads.** Every connection lives on a dedicated thread of its own for its whole life (the
/// threads of a ``Concurrency/BlockingPool``: one for the writer, `readerCount` for the readers, one
/// for checkpoints): it is opened there, used there, and closed there. Callers' closures are queued
/// to those threads and their results come back through continuations, so no blocking SQLite call
/// (disk I/O, `fsync`, waiting for a lock) ever runs on the Swift concurrency pool, and every
/// connection is used by exactly one thread, as SQLite's multi-thread mode requires. Dedicated
/// threads rather than dispatch queues make that confinement explicit and let the writer take every
/// queued write at once, which group commit needs; the cost is a fixed `1 + readerCount` threads,
/// and one more for checkpoints.
///
/// **Lookups.** ``lookup(_:)`` is the one exception: a read of a few rows by key runs at once on the
/// calling thread, with one of ``Configuration/lookupConnectionCount`` connections of its own, taken
/// from a shared set under a lock. Such a read takes a few microseconds of CPU; handing it to a reader
/// thread and back costs two thread wake-ups, more than the read. A lookup connection is used by one
/// thread at a time (the lock orders its uses), which is what SQLite's multi-thread mode asks. It
/// never waits for a lock: its busy timeout is zero, and a lookup that meets a lock, or finds every
/// lookup connection in use, is handed to the readers instead, as a ``read(_:)``.
///
/// **Writes (group commit).** The writer takes every queued write (up to
/// ``Configuration/maxBatchSize``) and runs them in one `BEGIN IMMEDIATE … COMMIT` transaction. A
/// write whose closure throws is rolled back and fails alone; the others go on. So does a write that
/// leaves a deferred foreign key unresolved (checked after each write), which would otherwise make
/// the shared `COMMIT` fail. (The batch runs first without savepoints; when a write fails, it is
/// rolled back whole and run again with a savepoint per write, as are the next few batches: see
/// `GroupCommitter.run`.) Callers are resumed only after `COMMIT` has returned, so a `write` that
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
/// `.misuse` error. A read sees every write whose `write` call has returned. A read (and a lookup)
/// runs in a read transaction of the driver's: all its statements see one snapshot, the database
/// as it was at the first of them, so a read of a row and then of its lines never sees a write
/// committed between the two. The closure may not begin or end a transaction itself.
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
        /// Connections for ``SQLiteDatabase/lookup(_:)`` on the calling thread; 0 hands every lookup
        /// to the readers. One per thread of the Swift concurrency pool is enough.
        public var lookupConnectionCount: Int
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
        /// With a ``checkpointInterval``: once a commit leaves this many frames (pages) in the
        /// write-ahead log, the writer starts the log over (see ``logRestartWait``); `nil` never does.
        /// The log file is then cut back to this many frames, should a large transaction have
        /// stretched it.
        ///
        /// Checkpoints that wait for nobody copy the log only up to the oldest snapshot a reader
        /// holds, and SQLite starts the log over only when all of it is copied and no reader uses it.
        /// Under steady reads and writes that never happens: the log, and the index SQLite maps
        /// into memory beside it, grow without end.
        public var logRestartFrames: Int?
        /// How long the writer waits for readers to reach the newest snapshot when it starts the log
        /// over; writes wait meanwhile. After a wait that runs out, it tries again a second later.
        public var logRestartWait: Duration

        /// A configuration; the defaults suit the store: 4 readers, one lookup connection per
        /// processor, `synchronous=FULL`, a 5 s busy
        /// timeout, batches of up to 128 writes, 3 attempts on busy, 64 cached statements, a
        /// checkpoint every 250 ms, and the log started over past 4,096 frames (16 MiB with 4 KiB
        /// pages), waiting at most 100 ms for readers.
        public init(
            readerCount: Int = 4, lookupConnectionCount: Int = ProcessInfo.processInfo.activeProcessorCount,
            synchronous: SQLiteSynchronousMode = .full, busyTimeout: Duration = .seconds(5),
            maxBatchSize: Int = 128, transientAttemptLimit: Int = 3, statementCacheCapacity: Int = 64,
            checkpointInterval: Duration? = .milliseconds(250), logRestartFrames: Int? = 4_096,
            logRestartWait: Duration = .milliseconds(100)
        ) {
            self.checkpointInterval = checkpointInterval
            self.logRestartFrames = logRestartFrames
            self.logRestartWait = logRestartWait
            self.readerCount = readerCount
            self.lookupConnectionCount = lookupConnectionCount
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

    private let writer: BlockingPool<GroupCommitter>
    private let readers: BlockingPool<SQLiteConnection>
    private let checkpointer: BlockingPool<SQLiteConnection>?
    private let lookupConnections: LookupConnections
    private let writeStatistics: Locked<SQLiteWriteStatistics>
    /// Set when the database closes, to stop the checkpointer.
    private let stopped: Locked<Bool>

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
    public convenience init(path: String, configuration: Configuration = Configuration()) throws(DatabaseError) {
        let plan = try Plan(path: path, configuration: configuration)
        // The writer first: it switches the file to WAL, which the readers then expect.
        let writer = try BlockingPool(
            name: "SQLiteDriver.writer", threads: 1, batchLimit: configuration.maxBatchSize,
            afterBatch: { committer in committer.commitStaged() }, makeResource: plan.makeWriter)
        var checkpointer: BlockingPool<SQLiteConnection>?
        do throws(DatabaseError) {
            if plan.checkpointsApart {
                checkpointer = try BlockingPool(
                    name: "SQLiteDriver.checkpointer", threads: 1, makeResource: plan.makeCheckpointer)
            }
            let readers = try BlockingPool(
                name: "SQLiteDriver.reader", threads: configuration.readerCount, makeResource: plan.makeReader)
            do throws(DatabaseError) {
                let lookups = try plan.makeLookupConnections()
                self.init(plan: plan, writer: writer, readers: readers, checkpointer: checkpointer, lookups: lookups)
            } catch {
                readers.closeBlockingUntilEnded()
                throw error
            }
        } catch {
            checkpointer?.closeBlockingUntilEnded()
            writer.closeBlockingUntilEnded()
            throw error
        }
    }

    /// Opens the database like ``init(path:configuration:)``, without blocking the caller's thread.
    public static func open(
        path: String, configuration: Configuration = Configuration()
    ) async throws(DatabaseError) -> SQLiteDatabase {
        let plan = try Plan(path: path, configuration: configuration)
        let writer = try await BlockingPool.start(
            name: "SQLiteDriver.writer", threads: 1, batchLimit: configuration.maxBatchSize,
            afterBatch: { committer in committer.commitStaged() }, makeResource: plan.makeWriter)
        var checkpointer: BlockingPool<SQLiteConnection>?
        do throws(DatabaseError) {
            if plan.checkpointsApart {
                checkpointer = try await BlockingPool.start(
                    name: "SQLiteDriver.checkpointer", threads: 1, makeResource: plan.makeCheckpointer)
            }
            let readers = try await BlockingPool.start(
                name: "SQLiteDriver.reader", threads: configuration.readerCount, makeResource: plan.makeReader)
            do throws(DatabaseError) {
                // Opened on a reader's thread, so that this call does not block its caller's.
                let lookups = try await Self.onThread(of: readers) { () throws(DatabaseError) in
                    try plan.makeLookupConnections()
                }
                return SQLiteDatabase(
                    plan: plan, writer: writer, readers: readers, checkpointer: checkpointer, lookups: lookups)
            } catch {
                await readers.close()
                throw error
            }
        } catch {
            await checkpointer?.close()
            await writer.close()
            throw error
        }
    }

    /// Runs `body` on one of `pool`'s threads, keeping its typed error.
    private static func onThread<T: Sendable>(
        of pool: BlockingPool<SQLiteConnection>, _ body: @escaping @Sendable () throws(DatabaseError) -> T
    ) async throws(DatabaseError) -> T {
        let result: Result<T, DatabaseError>
        do {
            result = try await pool.run { _ in Result { () throws(DatabaseError) in try body() } }
        } catch {
            throw .databaseClosed
        }
        return try result.get()
    }

    private init(
        plan: Plan, writer: BlockingPool<GroupCommitter>, readers: BlockingPool<SQLiteConnection>,
        checkpointer: BlockingPool<SQLiteConnection>?, lookups: LookupConnections
    ) {
        self.lookupConnections = lookups
        path = plan.path
        configuration = plan.configuration
        writeStatistics = plan.statistics
        stopped = plan.stopped
        self.writer = writer
        self.readers = readers
        self.checkpointer = checkpointer
        if let checkpointer, let interval = configuration.checkpointInterval {
            // One job that lasts until the database closes: so that no commit ever waits for a
            // checkpoint (the writer's automatic ones are off), a connection of its own copies the
            // write-ahead log into the database file every `interval`, and once more at the end.
            let stopped = stopped
            let checkpointing = plan.checkpointing
            checkpointer.submit { connection in
                while stopped.wait(until: { $0 ? () : nil }, timeout: interval) == nil {
                    checkpointing.withLock { count in
                        connection.checkpoint()
                        count += 1
                    }
                }
                checkpointing.withLock { count in
                    connection.checkpoint()
                    count += 1
                }
            }
        }
    }

    deinit {
        // Without close(): the threads drain what is queued, close their connections and end.
        writer.closeWithoutWaiting()
        readers.closeWithoutWaiting()
        lookupConnections.close()
        stopped.withLock(waking: .all) { $0 = true }
        checkpointer?.closeWithoutWaiting()
    }

    // MARK: - SQLDatabase

    /// Runs `body` on a reader connection, on a reader thread, and returns its result.
    ///
    /// The connection is `query_only`: any write fails with a `.misuse` error. Throws what `body`
    /// throws, or `.misuse` ("database is closed") after ``close()``.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        do {
            return try await readers.run { connection in try connection.inReadTransaction { try body(connection) } }
        } catch BlockingPoolError.closed {
            throw DatabaseError.databaseClosed
        }
    }

    /// Runs `body` at once on the calling thread with a lookup connection, or on a reader thread
    /// like ``read(_:)`` when every lookup connection is in use or `body` met a lock (it then runs
    /// again there). See "Lookups" in the type's documentation.
    ///
    /// The connection is `query_only`. Throws what `body` throws, or `.misuse` ("database is
    /// closed") after ``close()``.
    public func lookup<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        if let taken = lookupConnections.take() {
            do {
                defer { lookupConnections.giveBack(taken) }
                return try taken.connection.inReadTransaction { try body(taken.connection) }
            } catch let error as DatabaseError where error.kind == .busy {
                // A lock is waited for on a reader thread, never here.
            }
        }
        lookupConnections.countHandedOn()
        return try await read(body)
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
            if !writer.submit({ committer in committer.stage(job) }) {
                continuation.resume(throwing: DatabaseError.databaseClosed)
            }
        }
    }

    /// Lets queued reads and writes finish, then closes every connection and ends every thread.
    ///
    /// Calls made after `close()` has begun fail with `.misuse` ("database is closed"). Calling it again
    /// is harmless.
    public func close() async {
        writer.closeWithoutWaiting()
        readers.closeWithoutWaiting()
        lookupConnections.close()
        await writer.close()
        await readers.close()
        // Last, so that the checkpointer's final checkpoint comes after the last write.
        stopped.withLock(waking: .all) { $0 = true }
        await checkpointer?.close()
    }

    // MARK: - Inspection

    /// Counters of the writer: commits against jobs show how well writes are being batched.
    public func statistics() -> SQLiteWriteStatistics {
        var statistics = writeStatistics.current
        statistics.queuedJobs = writer.queuedJobCount
        return statistics
    }

    /// How many lookups ran on their callers' threads, and how many were handed to the readers.
    public func lookupStatistics() -> SQLiteLookupStatistics {
        lookupConnections.statistics
    }

    /// The settings the writer connection reports (read back with `PRAGMA`s, in a write job).
    public func writerSettings() async throws -> SQLiteSettings {
        try await write { connection in try Self.sqliteConnection(connection).settings() }
    }

    /// The writer's WAL writes so far (asked and made), or `nil` when they are not gathered.
    public func writerWALWrites() async throws -> SQLiteWALWrites? {
        try await write { connection in try Self.sqliteConnection(connection).walWrites() }
    }

    /// The settings a reader connection reports (read back with `PRAGMA`s).
    public func readerSettings() async throws -> SQLiteSettings {
        try await read { connection in try Self.sqliteConnection(connection).settings() }
    }

    private static func sqliteConnection(_ connection: any SQLConnection) throws(DatabaseError) -> SQLiteConnection {
        guard let connection = connection as? SQLiteConnection else {
            throw .driverMisuse("not an SQLite connection")
        }
        return connection
    }
}

/// What the driver's threads are made of, for the blocking and the async opening alike.
private struct Plan: Sendable {
    let path: String
    let configuration: SQLiteDatabase.Configuration
    let statistics = Locked(SQLiteWriteStatistics())
    let stopped = Locked(false)
    /// The checkpoints run so far, held by whichever of the checkpointer and the writer is
    /// checkpointing: SQLite lets one checkpoint run at a time and fails another at once, so the
    /// writer's restart of the log waits for a passive checkpoint under way instead of failing.
    let checkpointing = Locked(0)
    private let writerOptions: SQLiteConnection.Options

    /// Checks the configuration.
    init(path: String, configuration: SQLiteDatabase.Configuration) throws(DatabaseError) {
        guard configuration.readerCount >= 1, configuration.lookupConnectionCount >= 0,
            configuration.maxBatchSize >= 1,
            configuration.transientAttemptLimit >= 1, configuration.statementCacheCapacity >= 0,
            configuration.busyTimeout >= .zero, (configuration.logRestartFrames ?? 1) >= 1,
            configuration.logRestartWait >= .zero
        else {
            throw .driverMisuse(
                "invalid configuration: readerCount, maxBatchSize, transientAttemptLimit and logRestartFrames "
                    + "must be at least 1, lookupConnectionCount, statementCacheCapacity, busyTimeout and "
                    + "logRestartWait not negative")
        }
        self.path = path
        self.configuration = configuration
        writerOptions = SQLiteConnection.Options(
            role: .writer, synchronous: configuration.synchronous, busyTimeout: configuration.busyTimeout,
            statementCacheCapacity: configuration.statementCacheCapacity)
    }

    /// Whether a connection of its own checkpoints the write-ahead log, rather than the writer's commits.
    var checkpointsApart: Bool { configuration.checkpointInterval != nil }

    /// The writer's connection, wrapped in what runs its batches. Called on the writer thread.
    func makeWriter(_: Int) throws(DatabaseError) -> GroupCommitter {
        let connection = try SQLiteConnection(path: path, options: writerOptions)
        var logRestart: GroupCommitter.LogRestart?
        if checkpointsApart {
            connection.disableAutomaticCheckpoints()
            if let frames = configuration.logRestartFrames {
                try connection.limitLogFile(toFrames: frames)
                logRestart = GroupCommitter.LogRestart(
                    frames: frames, wait: configuration.logRestartWait, checkpointing: checkpointing)
            }
        }
        return GroupCommitter(
            connection: connection, attemptLimit: configuration.transientAttemptLimit, logRestart: logRestart,
            statistics: statistics)
    }

    /// The checkpointer's connection. Called on its thread.
    func makeCheckpointer(_: Int) throws(DatabaseError) -> SQLiteConnection {
        try SQLiteConnection(path: path, options: writerOptions)
    }

    /// A `query_only` reader connection. Called on the reader's thread.
    func makeReader(_: Int) throws(DatabaseError) -> SQLiteConnection {
        var options = writerOptions
        options.role = .reader
        return try SQLiteConnection(path: path, options: options)
    }

    /// The lookup connections: `query_only` like a reader's, and never waiting for a lock.
    func makeLookupConnections() throws(DatabaseError) -> LookupConnections {
        var options = writerOptions
        options.role = .reader
        options.busyTimeout = .zero
        var connections: [LookupConnections.Connection] = []
        for _ in 0..<configuration.lookupConnectionCount {
            connections.append(LookupConnections.Connection(try SQLiteConnection(path: path, options: options)))
        }
        return LookupConnections(connections)
    }
}

extension SQLiteDatabase: SQLQueueReporting {
    /// Writes waiting for the writer plus reads waiting for a reader.
    public var waitingJobs: Int { statistics().queuedJobs + readers.queuedJobCount }

    /// Commits made by the writer and the writes they made durable.
    public var groupCommits: (commits: Int, writes: Int)? {
        let statistics = statistics()
        return (statistics.commits, statistics.committedJobs)
    }

    /// Lookups run on their callers' threads, and those handed to the readers.
    public var lookups: (onCaller: Int, handedOn: Int)? {
        let statistics = lookupStatistics()
        return (statistics.ranOnCaller, statistics.handedToReaders)
    }
}
