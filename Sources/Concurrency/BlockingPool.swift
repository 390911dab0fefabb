import Foundation

/// A fixed set of threads, each owning one resource of its own (a database connection), that run
/// blocking jobs taken from one first-in first-out queue; async callers wait on continuations.
///
/// ```swift
/// let pool = try await BlockingPool.start(name: "Example.worker", threads: 4) { _ in try Connection() }
/// let rows = try await pool.run { connection in try connection.query("SELECT 1") }
/// await pool.close()
/// ```
///
/// **Why threads of our own.** A job blocks its thread in C code — disk I/O and `fsync`, a network
/// round trip, a lock held by another process — and a database job holds its connection for a
/// whole transaction. On the Swift concurrency pool (one thread per core: two on the store's
/// machine) that would stall every other task; Dispatch's global queues would spawn threads
/// without bound for blocked work; a serial queue per connection would still need a dispatcher to
/// find a free one, and a thread of Dispatch's is never the same one twice, which the C libraries'
/// one-thread-per-connection rules need spelled out. A fixed set of `Thread`s waiting on one queue
/// gives exactly `threads` concurrent jobs, first come first served; each resource is made, used and
/// released on its own thread only; and a thread can take every queued job at once (`batchLimit`),
/// which group commit needs. The cost is a fixed number of threads. Callers wait with a
/// continuation, so no cooperative thread ever blocks.
///
/// **Jobs** run in the order they were queued: with one thread, one after another in that order;
/// with several, each free thread takes the oldest waiting job. A job receives its thread's
/// resource `inout`.
///
/// **Closing.** ``close()`` refuses new jobs (``run(_:)`` throws ``BlockingPoolError/closed``,
/// ``submit(_:)`` returns `false`), lets the threads finish every job already queued, and returns
/// once every thread has released its resource and ended. Releasing the pool without closing it
/// closes it without waiting: the threads still drain the queue and end on their own.
///
/// **Cancellation.** A job is never withdrawn: cancelling the task that called ``run(_:)`` does not
/// stop the job, queued or running, and the call still returns the job's result. A job that must
/// notice cancellation has to be told some other way (e.g. a flag it checks).
public final class BlockingPool<Resource>: Sendable {
    /// A unit of work, run on one of the pool's threads with that thread's resource.
    public typealias Job = @Sendable (inout Resource) -> Void

    /// The name the threads are given (`name`, or `name.1` … `name.N` when there are several).
    public let name: String
    /// How many threads (and resources) the pool has.
    public let threadCount: Int

    private let queue = JobQueue<Job>()
    private let threads = ThreadGroup()

    /// Starts `threads` threads and waits (blocking the calling thread) until each has made its
    /// resource with `makeResource`.
    ///
    /// - Parameters:
    ///   - name: the threads' name, for debuggers and logs.
    ///   - threads: how many threads, at least 1.
    ///   - batchLimit: the most queued jobs a thread takes at once, at least 1. A thread runs the
    ///     jobs it took one after another, then calls `afterBatch`.
    ///   - afterBatch: run on the thread after each batch of jobs, with its resource (for example
    ///     to commit the work the jobs of the batch did).
    ///   - makeResource: called once on each thread with the thread's index (0 ..< `threads`); the
    ///     resource it returns is used only on that thread and released there when the thread ends.
    /// - Throws: the first error `makeResource` threw; by then every thread has released what it
    ///   had made and ended.
    ///
    /// Blocks: from async code use ``start(name:threads:batchLimit:afterBatch:makeResource:)``.
    public convenience init<Failure: Error>(
        name: String, threads: Int, batchLimit: Int = 1, afterBatch: (@Sendable (inout Resource) -> Void)? = nil,
        makeResource: @escaping @Sendable (_ index: Int) throws(Failure) -> Resource
    ) throws(Failure) {
        let startup = Startup<Failure>(expecting: threads)
        self.init(
            name: name, threads: threads, batchLimit: batchLimit, afterBatch: afterBatch, startup: startup,
            makeResource: makeResource)
        if let failure = startup.blockUntilReported() {
            closeBlockingUntilEnded()
            throw failure
        }
    }

    /// Starts the pool like ``init(name:threads:batchLimit:afterBatch:makeResource:)``, suspending
    /// (not blocking) the caller until every thread has made its resource.
    ///
    /// - Throws: the first error `makeResource` threw; by then every thread has ended.
    public static func start<Failure: Error>(
        name: String, threads: Int, batchLimit: Int = 1, afterBatch: (@Sendable (inout Resource) -> Void)? = nil,
        makeResource: @escaping @Sendable (_ index: Int) throws(Failure) -> Resource
    ) async throws(Failure) -> BlockingPool {
        let startup = Startup<Failure>(expecting: threads)
        let pool = BlockingPool(
            name: name, threads: threads, batchLimit: batchLimit, afterBatch: afterBatch, startup: startup,
            makeResource: makeResource)
        if let failure = await startup.reported() {
            await pool.close()
            throw failure
        }
        return pool
    }

    private init<Failure: Error>(
        name: String, threads count: Int, batchLimit: Int, afterBatch: (@Sendable (inout Resource) -> Void)?,
        startup: Startup<Failure>, makeResource: @escaping @Sendable (Int) throws(Failure) -> Resource
    ) {
        precondition(count >= 1, "a BlockingPool needs at least one thread")
        precondition(batchLimit >= 1, "a BlockingPool's batch limit must be at least 1")
        self.name = name
        threadCount = count
        let queue = queue
        for index in 0..<count {
            threads.start(named: count == 1 ? name : "\(name).\(index + 1)") {
                var resource: Resource
                do throws(Failure) {
                    resource = try makeResource(index)
                } catch {
                    startup.report(error)
                    return
                }
                startup.report(nil)
                var batch: [Job] = []
                batch.reserveCapacity(batchLimit)
                while queue.take(upTo: batchLimit, into: &batch) {
                    for job in batch { job(&resource) }
                    // Releases the jobs (and what they captured) before the next wait.
                    batch.removeAll(keepingCapacity: true)
                    afterBatch?(&resource)
                }
            }
        }
    }

    deinit {
        queue.close()
    }

    /// Queues `job` for the next free thread; `false` (and the job never runs) once the pool is
    /// closing. Returns at once.
    @discardableResult
    public func submit(_ job: @escaping Job) -> Bool {
        queue.enqueue(job)
    }

    /// Runs `body` on the next free thread with its resource and returns its result, suspending
    /// the caller meanwhile.
    ///
    /// - Throws: what `body` throws; ``BlockingPoolError/closed`` (and `body` never runs) when the
    ///   pool is closing. Cancelling the calling task neither withdraws nor interrupts `body`.
    public func run<T: Sendable>(_ body: @escaping @Sendable (inout Resource) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let accepted = queue.enqueue { resource in
                continuation.resume(with: Result { try body(&resource) })
            }
            if !accepted { continuation.resume(throwing: BlockingPoolError.closed) }
        }
    }

    /// Jobs queued and not yet taken by a thread.
    public var queuedJobCount: Int { queue.count }

    /// Refuses new jobs, lets the threads finish every queued job, and returns once every thread has
    /// released its resource and ended. Calling it again (or concurrently) is harmless.
    public func close() async {
        queue.close()
        await threads.allEnded()
    }

    /// Like ``close()``, blocking the calling thread instead of suspending; for synchronous code
    /// on threads that may block, never for the Swift concurrency pool.
    public func closeBlockingUntilEnded() {
        queue.close()
        threads.blockUntilAllEnded()
    }

    /// Refuses new jobs and returns at once; the threads drain the queue and end on their own.
    public func closeWithoutWaiting() {
        queue.close()
    }
}

/// Why a ``BlockingPool`` refused a job.
public enum BlockingPoolError: Error, Sendable, Hashable {
    /// The pool was closing or closed: the job was not queued and never runs.
    case closed
}

/// A first-in first-out queue of jobs, filled by callers and emptied by the pool's threads.
///
/// Once closed it accepts nothing more, but still hands out the jobs already queued, so closing
/// drains.
final class JobQueue<Job: Sendable>: Sendable {
    private struct State {
        /// Taken jobs are set to `nil` (releasing what they hold) until the array is compacted.
        var jobs: [Job?] = []
        var head = 0
        var isClosed = false

        var count: Int { jobs.count - head }
    }

    private let state = Locked(State())

    /// Queues `job`; `false` (and the job is not queued) once the queue is closed.
    func enqueue(_ job: Job) -> Bool {
        // Only consumers wait on this lock, and any one of them can take the job.
        state.withLock(waking: .one) { state in
            guard !state.isClosed else { return false }
            state.jobs.append(job)
            return true
        }
    }

    /// Waits for at least one job and appends up to `limit` of them to `batch`, oldest first;
    /// `false` (nothing taken) once the queue is closed and drained.
    func take(upTo limit: Int, into batch: inout [Job]) -> Bool {
        state.wait { state -> Bool? in
            guard state.count > 0 else { return state.isClosed ? false : nil }
            let end = state.head + min(limit, state.count)
            for index in state.head..<end {
                if let job = state.jobs[index] { batch.append(job) }
                state.jobs[index] = nil
            }
            state.head = end
            if state.head == state.jobs.count {
                state.jobs.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head >= 1024 {
                state.jobs.removeFirst(state.head)
                state.head = 0
            }
            return true
        }
    }

    /// Refuses further jobs and wakes every waiting consumer.
    func close() {
        state.withLock(waking: .all) { $0.isClosed = true }
    }

    var count: Int { state.withLock { $0.count } }
}

/// What the pool's threads report once they have tried to make their resource.
final class Startup<Failure: Error>: Sendable {
    private struct State {
        let expected: Int
        var reported = 0
        var firstFailure: Failure?
        var waiter: CheckedContinuation<Failure?, Never>?

        var isComplete: Bool { reported >= expected }
    }

    private let state: Locked<State>

    init(expecting count: Int) {
        state = Locked(State(expected: count))
    }

    /// Records one thread's outcome: `nil` when its resource is ready.
    func report(_ failure: Failure?) {
        let completed = state.withLock(waking: .all) { state -> (CheckedContinuation<Failure?, Never>, Failure?)? in
            state.reported += 1
            if state.firstFailure == nil { state.firstFailure = failure }
            guard state.isComplete, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return (waiter, state.firstFailure)
        }
        if let (waiter, failure) = completed { waiter.resume(returning: failure) }
    }

    /// Blocks until every thread has reported; the first failure, if any.
    func blockUntilReported() -> Failure? {
        state.wait { state in state.isComplete ? .some(state.firstFailure) : nil }
    }

    /// Suspends until every thread has reported; the first failure, if any.
    func reported() async -> Failure? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Failure?, Never>) in
            let done = state.withLock { state -> Failure?? in
                if state.isComplete { return .some(state.firstFailure) }
                state.waiter = continuation
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }
}

/// The pool's running threads, so that closing can wait until every resource is released.
final class ThreadGroup: Sendable {
    private struct State {
        var running = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Starts a thread running `body`; the thread counts as running until `body` has returned (and
    /// so released its resource).
    func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.running += 1 }
        let thread = Thread { [self] in
            body()
            ended()
        }
        thread.name = name
        thread.start()
    }

    /// Suspends until every thread has ended.
    func allEnded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if state.running == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Blocks the calling thread until every thread has ended.
    func blockUntilAllEnded() {
        state.wait { $0.running == 0 ? () : nil }
    }

    private func ended() {
        let waiters = state.withLock(waking: .all) { state in
            state.running -= 1
            guard state.running == 0 else { return [CheckedContinuation<Void, Never>]() }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
