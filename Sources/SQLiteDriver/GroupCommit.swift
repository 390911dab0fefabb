import Concurrency
import Foundation
import StoreSQL

/// A caller's write, queued for the writer thread.
struct WriteJob: Sendable {
    /// Runs the caller's closure on the writer connection. On success it returns what reports the
    /// value to the caller, to be called only once the transaction has committed. It may be called
    /// more than once when a batch has to be run again.
    let attempt: @Sendable (SQLiteConnection) throws -> @Sendable () -> Void
    /// Reports a failure to the caller.
    let fail: @Sendable (any Error) -> Void
}

/// Counters kept by the writer thread.
public struct SQLiteWriteStatistics: Sendable, Hashable {
    /// Transactions the writer committed (one per batch that had at least one successful job).
    public var commits = 0
    /// Write jobs whose changes were committed.
    public var committedJobs = 0
    /// Write jobs that failed: their own error, a failed BEGIN or COMMIT, or exhausted retries.
    public var failedJobs = 0
    /// Batches started again from scratch because SQLite rolled their transaction back on its own.
    public var restartedTransactions = 0
    /// The most jobs one commit made durable.
    public var largestCommittedBatch = 0
    /// Batches run again with a savepoint per job because a job failed when they ran without.
    public var batchesRunAgainWithSavepoints = 0
    /// Write jobs waiting for the writer when the statistics were taken.
    public var queuedJobs = 0
    /// Times the writer started the write-ahead log over (see
    /// ``SQLiteDatabase/Configuration/logRestartFrames``).
    public var logRestarts = 0
    /// Times the writer gave up starting the log over because a reader held an old snapshot for
    /// the whole wait.
    public var logRestartsGivenUp = 0

    /// All counters at zero.
    public init() {}
}

/// Runs batches of write jobs on the writer connection, one transaction per batch (group commit).
///
/// The writer thread's resource: confined to that thread, like the connection it drives. The pool's
/// jobs ``stage(_:)`` the writes the thread took at once; ``commitStaged()`` then runs them as one batch.
struct GroupCommitter {
    /// When the writer starts the write-ahead log over.
    struct LogRestart {
        /// The log's length, in frames, past which it is started over.
        let frames: Int
        /// How long the writer waits for readers each time.
        let wait: Duration
        /// Shared with the checkpointer, so the two never checkpoint at once (it counts checkpoints).
        let checkpointing: Locked<Int>
    }

    let connection: SQLiteConnection
    /// How many times a transient failure (busy) is tried before giving up.
    let attemptLimit: Int
    let logRestart: LogRestart?
    let statistics: Locked<SQLiteWriteStatistics>
    /// The writes taken since the last batch ran.
    private var staged: [WriteJob] = []
    /// No restart of the log is tried before this, after one that waited in vain for a reader.
    private var nextLogRestart = ContinuousClock.now
    /// Batches still to be run with a savepoint per job, after a batch run without them met a
    /// failure (see ``run(_:)``).
    private var savepointBatchesLeft = 0

    /// How many batches run with a savepoint per job after one that met a failure without them.
    static let savepointBatchesAfterAFailure = 8

    init(
        connection: SQLiteConnection, attemptLimit: Int, logRestart: LogRestart?,
        statistics: Locked<SQLiteWriteStatistics>
    ) {
        self.connection = connection
        self.attemptLimit = attemptLimit
        self.logRestart = logRestart
        self.statistics = statistics
    }

    /// Adds a write to the next batch.
    mutating func stage(_ job: WriteJob) {
        staged.append(job)
    }

    /// Runs the staged writes in one transaction (see ``run(_:)``) and starts a new batch.
    mutating func commitStaged() {
        guard !staged.isEmpty else { return }
        let jobs = staged
        staged.removeAll(keepingCapacity: true)
        run(jobs)
        restartLogIfLong()
    }

    /// Starts the write-ahead log over once it is past the limit. Runs between batches, after every
    /// caller has its answer, so only the writes queued meanwhile wait for it.
    private mutating func restartLogIfLong() {
        guard let logRestart, connection.logFrames >= logRestart.frames, ContinuousClock.now >= nextLogRestart
        else { return }
        let connection = connection
        let (restarted, waited) = logRestart.checkpointing.withLock { count in
            let start = ContinuousClock.now
            let restarted = connection.restartLog(waitingAtMost: logRestart.wait)
            count += 1
            return (restarted, ContinuousClock.now - start)
        }
        if restarted {
            statistics.withLock { $0.logRestarts += 1 }
        } else if waited >= logRestart.wait {
            // A reader held on the whole while: give it time before writes wait for it again. (A
            // failure without waiting means another process was checkpointing; the next batch tries
            // again.)
            nextLogRestart = ContinuousClock.now + .seconds(1)
            statistics.withLock { $0.logRestartsGivenUp += 1 }
        }
    }

    private var savepoint: String { SQLiteConnection.jobSavepointName }

    /// How one job ended in the current transaction.
    private enum JobOutcome {
        case succeeded(report: @Sendable () -> Void)
        /// The job's own failure; its savepoint was rolled back, the transaction goes on.
        case failed(any Error)
        /// The job failed (or returned) after SQLite had ended the whole transaction.
        case transactionLost(any Error)
    }

    /// Runs `jobs` in one transaction and reports to every caller once it has committed (or failed).
    ///
    /// **First without savepoints.** Almost every write succeeds, and a savepoint per job cost a
    /// tenth of the writer's work: SQLite copies into the savepoint's journal every page the batch
    /// had already changed that the job changes again, and the batch's jobs share their hot pages
    /// (an index's last leaf, a product's row). So the jobs run one after another in one plain
    /// transaction. If one fails — it throws, leaves a deferred foreign key unresolved, or SQLite
    /// ended the transaction — everything is rolled back and the same batch runs again as below, a
    /// savepoint per job, which gives the outcome the savepoints alone would have given (a job may
    /// run more than once: ``SQLiteDatabase/write(_:)`` asks for that). The next
    /// ``savepointBatchesAfterAFailure`` batches then go straight to savepoints, so a run of failing
    /// writes costs at most one batch run twice in that many.
    mutating func run(_ jobs: [WriteJob]) {
        if savepointBatchesLeft > 0 {
            savepointBatchesLeft -= 1
            runWithSavepoints(jobs)
            return
        }
        switch runTogether(jobs) {
        case .finished:
            return
        case .jobFailed:
            connection.rollbackIfInTransaction()
            statistics.withLock { $0.batchesRunAgainWithSavepoints += 1 }
            savepointBatchesLeft = Self.savepointBatchesAfterAFailure
            runWithSavepoints(jobs)
        }
    }

    private enum TogetherOutcome {
        /// Committed and reported, or failed as a whole (`BEGIN` or `COMMIT`) and reported.
        case finished
        /// A job failed; nothing is reported, and the transaction is to be rolled back.
        case jobFailed
    }

    /// Runs every job in one transaction without savepoints, commits and reports; stops at the first
    /// job that fails.
    private func runTogether(_ jobs: [WriteJob]) -> TogetherOutcome {
        guard begin(pending: Array(jobs.indices), failures: [], jobs: jobs) else { return .finished }
        var successes: [(index: Int, report: @Sendable () -> Void)] = []
        successes.reserveCapacity(jobs.count)
        for index in jobs.indices {
            connection.refusesTransactionControl = true
            let report: (@Sendable () -> Void)?
            do {
                report = try jobs[index].attempt(connection)
            } catch {
                report = nil
            }
            connection.refusesTransactionControl = false
            guard let report, connection.isInTransaction, !connection.hasUnresolvedForeignKeyViolations else {
                return .jobFailed
            }
            successes.append((index, report))
        }
        commit(successes, failures: [], jobs: jobs)
        return .finished
    }

    /// `BEGIN IMMEDIATE`, tried again while busy. If it fails, every job of `pending` fails with its
    /// error, all is reported with the earlier `failures`, and this returns `false`.
    private func begin(pending: [Int], failures: [(index: Int, error: any Error)], jobs: [WriteJob]) -> Bool {
        do {
            try retryingTransient { () throws(DatabaseError) in try connection.runControl("BEGIN IMMEDIATE") }
            return true
        } catch {
            connection.rollbackIfInTransaction()
            report(
                successes: [], failures: failures + pending.map { (index: $0, error: error as any Error) }, jobs: jobs)
            return false
        }
    }

    /// `COMMIT`, tried again while busy, then the report: the successes get their values — or, if the
    /// commit failed, its error, and nothing of the batch is kept; `failures` keep their own errors.
    private func commit(
        _ successes: [(index: Int, report: @Sendable () -> Void)], failures: [(index: Int, error: any Error)],
        jobs: [WriteJob]
    ) {
        do {
            try retryingTransient { () throws(DatabaseError) in try connection.runControl("COMMIT") }
        } catch {
            connection.rollbackIfInTransaction()
            report(
                successes: [], failures: failures + successes.map { (index: $0.index, error: error as any Error) },
                jobs: jobs)
            return
        }
        statistics.withLock { statistics in
            statistics.commits += 1
            statistics.largestCommittedBatch = max(statistics.largestCommittedBatch, successes.count)
        }
        report(successes: successes, failures: failures, jobs: jobs)
    }

    /// Runs `jobs` in one transaction, each inside a savepoint of its own, and reports to every
    /// caller once it has committed (or failed).
    ///
    /// `BEGIN IMMEDIATE`, then each job inside its own savepoint: a job that throws is rolled back to
    /// its savepoint and fails alone. If SQLite rolls back the whole transaction while a job runs, that
    /// job fails and the jobs already run are run again in a fresh transaction, followed by the rest.
    /// A job failing with a transient error is run again, up to the attempt limit. After `COMMIT`
    /// returns, successful jobs get their values and failed jobs their errors; if `COMMIT` fails, every
    /// job that was to be committed gets the commit's error and nothing of the batch is kept.
    private func runWithSavepoints(_ jobs: [WriteJob]) {
        var pending = Array(jobs.indices)
        var failures: [(index: Int, error: any Error)] = []
        // Transient failures per job; a job re-run only because the batch restarted is not counted.
        var transientFailures = [Int](repeating: 0, count: jobs.count)

        while true {
            guard !pending.isEmpty else {
                report(successes: [], failures: failures, jobs: jobs)
                return
            }
            guard begin(pending: pending, failures: failures, jobs: jobs) else { return }

            var successes: [(index: Int, report: @Sendable () -> Void)] = []
            var restart = false
            var position = 0
            while !restart, position < pending.count {
                let index = pending[position]
                switch runInSavepoint(jobs[index]) {
                case .succeeded(let report):
                    successes.append((index, report))
                    position += 1
                case .failed(let error):
                    if isTransient(error) {
                        transientFailures[index] += 1
                        if transientFailures[index] < attemptLimit {
                            backOff(attempt: transientFailures[index])
                            continue  // the same job again, in a fresh savepoint
                        }
                    }
                    failures.append((index, finalError(error, attempts: transientFailures[index])))
                    pending.remove(at: position)
                case .transactionLost(let error):
                    connection.rollbackIfInTransaction()
                    if isTransient(error) { transientFailures[index] += 1 }
                    if !isTransient(error) || transientFailures[index] >= attemptLimit {
                        failures.append((index, finalError(error, attempts: transientFailures[index])))
                        pending.remove(at: position)
                    } else {
                        backOff(attempt: transientFailures[index])
                    }
                    restart = true
                }
            }
            if restart {
                statistics.withLock { $0.restartedTransactions += 1 }
                continue
            }

            guard !successes.isEmpty else {
                connection.rollbackIfInTransaction()
                report(successes: [], failures: failures, jobs: jobs)
                return
            }
            commit(successes, failures: failures, jobs: jobs)
            return
        }
    }

    /// Runs one job between `SAVEPOINT` and `RELEASE`, rolling back to the savepoint if it throws.
    private func runInSavepoint(_ job: WriteJob) -> JobOutcome {
        do {
            try connection.runControl("SAVEPOINT \(savepoint)")
        } catch {
            return connection.isInTransaction ? .failed(error) : .transactionLost(error)
        }
        let result: Result<@Sendable () -> Void, any Error>
        connection.refusesTransactionControl = true
        do {
            result = .success(try job.attempt(connection))
        } catch {
            result = .failure(error)
        }
        connection.refusesTransactionControl = false

        guard connection.isInTransaction else {
            switch result {
            case .success:
                return .transactionLost(
                    DatabaseError(
                        kind: .other, code: "transaction lost",
                        message: "SQLite rolled back the transaction during this write (an error was caught inside it)"
                    ))
            case .failure(let error):
                return .transactionLost(error)
            }
        }
        switch result {
        case .success(let report):
            // A deferred foreign key left dangling would fail the whole batch's COMMIT; it is this job's
            // (every job before it was checked), so this job alone fails, as SQLite would fail it alone.
            guard !connection.hasUnresolvedForeignKeyViolations else {
                return undo(after: DatabaseError.unresolvedForeignKey)
            }
            do {
                try connection.runControl("RELEASE \(savepoint)")
                return .succeeded(report: report)
            } catch {
                return undo(after: error)
            }
        case .failure(let error):
            return undo(after: error)
        }
    }

    /// Rolls the current job back to its savepoint; if that fails, the transaction cannot be trusted.
    private func undo(after error: any Error) -> JobOutcome {
        do {
            try connection.runControl("ROLLBACK TO \(savepoint)")
            try connection.runControl("RELEASE \(savepoint)")
            return .failed(error)
        } catch {
            connection.rollbackIfInTransaction()
            return .transactionLost(error)
        }
    }

    /// Runs `operation`, trying again after a transient failure up to the attempt limit.
    private func retryingTransient(_ operation: () throws(DatabaseError) -> Void) throws(DatabaseError) {
        var attempt = 0
        while true {
            attempt += 1
            do {
                try operation()
                return
            } catch  where error.isTransient {
                guard attempt < attemptLimit else { throw .retriesExhausted(after: attempt, last: error) }
                backOff(attempt: attempt)
            }
        }
    }

    private func isTransient(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.isTransient ?? false
    }

    /// A transient error that is given up on surfaces as `.retriesExhausted`; others as they are.
    private func finalError(_ error: any Error, attempts: Int) -> any Error {
        guard let databaseError = error as? DatabaseError, databaseError.isTransient else { return error }
        return DatabaseError.retriesExhausted(after: attempts, last: databaseError)
    }

    /// Sleeps the writer thread briefly before another attempt: 2, 4, 8… ms, at most 100 ms.
    private func backOff(attempt: Int) {
        let milliseconds = min(100, 1 << min(attempt, 7))
        Thread.sleep(forTimeInterval: Double(milliseconds) / 1000)
    }

    private func report(
        successes: [(index: Int, report: @Sendable () -> Void)], failures: [(index: Int, error: any Error)],
        jobs: [WriteJob]
    ) {
        statistics.withLock { statistics in
            statistics.committedJobs += successes.count
            statistics.failedJobs += failures.count
        }
        for success in successes { success.report() }
        for failure in failures { jobs[failure.index].fail(failure.error) }
    }
}
