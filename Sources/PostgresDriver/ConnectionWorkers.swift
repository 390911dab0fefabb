import Foundation
import StoreSQL

/// A fixed set of threads, each owning one ``PostgresConnection``, that run jobs from one FIFO queue.
///
/// Why threads of our own: every libpq call blocks its thread for at least a network round trip,
/// and a write's closure holds its connection for a whole transaction. Running that on the Swift
/// concurrency pool (two threads on this machine) would stall every other task; Dispatch's global
/// queues would spawn threads without bound for blocked work; a serial queue per connection would
/// still need a dispatcher to find a free one. A fixed set of `Thread`s waiting on one queue
/// (guarded by an `NSCondition`) gives exactly `count` concurrent jobs, first-come first-served,
/// and each connection only ever touched by its own thread. Callers wait with a continuation,
/// so no cooperative thread ever blocks.
///
/// `@unchecked Sendable`: every mutable property is read and written only while `condition` is locked.
final class ConnectionWorkers: @unchecked Sendable {
    /// A unit of work: receives the worker's connection, made ready for the job, or the error that
    /// kept it from being ready (e.g. the server could not be reached again). Runs on the worker thread.
    typealias Job = @Sendable (Result<PostgresConnection, DatabaseError>) -> Void
    /// Opens a worker's connection; called on the worker's thread.
    typealias Connect = @Sendable () throws(DatabaseError) -> PostgresConnection

    private let condition = NSCondition()
    private var queue: [Job?] = []
    private var head = 0
    private var isClosed = false
    private var liveWorkers = 0
    private var exitWaiters: [CheckedContinuation<Void, Never>] = []

    /// Starts `count` workers, each opening its connection with `connect` on its own thread.
    ///
    /// - Throws: the first connection error; the workers already started are then stopped.
    func start(count: Int, connect: @escaping Connect) async throws(DatabaseError) {
        let failure = await withTaskGroup(of: DatabaseError?.self) { group in
            for index in 0..<count {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        self.spawnWorker(index: index, connect: connect) { continuation.resume(returning: $0) }
                    }
                }
            }
            var first: DatabaseError?
            for await error in group where first == nil {
                first = error
            }
            return first
        }
        if let failure {
            await close()
            throw failure
        }
    }

    /// Queues `job`; returns `false` (and never runs it) once the workers are closing.
    func submit(_ job: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed else { return false }
        queue.append(job)
        condition.signal()
        return true
    }

    /// Stops accepting jobs, lets the workers finish every queued job, and returns once every
    /// worker has closed its connection and exited. Safe to call more than once.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            isClosed = true
            condition.broadcast()
            if liveWorkers == 0 {
                condition.unlock()
                continuation.resume()
            } else {
                exitWaiters.append(continuation)
                condition.unlock()
            }
        }
    }

    /// Stops accepting jobs without waiting: the workers drain the queue and exit on their own.
    func closeWithoutWaiting() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    private func spawnWorker(
        index: Int, connect: @escaping Connect,
        ready: @escaping @Sendable (DatabaseError?) -> Void
    ) {
        condition.lock()
        liveWorkers += 1
        condition.unlock()
        let thread = Thread { [self] in
            runWorker(connect: connect, ready: ready)
            workerExited()
        }
        thread.name = "PostgresDriver.worker.\(index)"
        thread.start()
    }

    /// The body of one worker thread. The connection is released (closed) when this returns.
    private func runWorker(
        connect: () throws(DatabaseError) -> PostgresConnection, ready: (DatabaseError?) -> Void
    ) {
        let connection: PostgresConnection
        do throws(DatabaseError) {
            connection = try connect()
        } catch {
            ready(error)
            return
        }
        ready(nil)
        while let job = nextJob() {
            do throws(DatabaseError) {
                try connection.prepareForJob()
                job(.success(connection))
            } catch {
                job(.failure(error))
            }
        }
    }

    /// The next job, waiting for one; `nil` once closed and drained.
    private func nextJob() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == queue.count, !isClosed {
            condition.wait()
        }
        guard head < queue.count else { return nil }
        let job = queue[head]
        queue[head] = nil
        head += 1
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 {
            queue.removeFirst(head)
            head = 0
        }
        return job
    }

    private func workerExited() {
        condition.lock()
        liveWorkers -= 1
        let waiters = liveWorkers == 0 ? exitWaiters : []
        if liveWorkers == 0 { exitWaiters.removeAll() }
        condition.unlock()
        for waiter in waiters { waiter.resume() }
    }
}
