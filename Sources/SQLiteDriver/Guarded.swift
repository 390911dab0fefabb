import Foundation

/// A value shared between threads, guarded by a condition lock, with blocking waits for a state.
///
/// `NSCondition` is used rather than `Synchronization.Mutex` because the package also targets
/// macOS 14, where `Mutex` is unavailable, and because the driver's threads need to sleep until a
/// state is reached (a job is queued, every thread has exited), which a mutex alone cannot do.
///
/// `@unchecked Sendable` is sound here: `state` is private and read or written only while
/// `condition` is locked, and `State` itself is `Sendable`.
final class Guarded<State: Sendable>: @unchecked Sendable {
    /// Which waiting threads to wake after a change.
    enum Wake {
        case none
        case one
        case all
    }

    private let condition = NSCondition()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with the state locked, then wakes `wake` waiting threads.
    func withLock<Result>(wake: Wake = .none, _ body: (inout State) -> Result) -> Result {
        condition.lock()
        defer {
            switch wake {
            case .none: break
            case .one: condition.signal()
            case .all: condition.broadcast()
            }
            condition.unlock()
        }
        return body(&state)
    }

    /// Blocks the calling thread until `ready` returns a value, re-checking after every wake-up.
    ///
    /// Never call this from the Swift concurrency pool: it is for the driver's own threads (and for the
    /// synchronous initializer, which documents that it blocks).
    func wait<Result>(wake: Wake = .none, until ready: (inout State) -> Result?) -> Result {
        condition.lock()
        defer {
            switch wake {
            case .none: break
            case .one: condition.signal()
            case .all: condition.broadcast()
            }
            condition.unlock()
        }
        while true {
            if let result = ready(&state) { return result }
            condition.wait()
        }
    }
}

/// A first-in first-out queue of jobs, filled by callers and emptied by the driver's threads.
///
/// Once closed it accepts nothing more, but still hands out the jobs already queued, so closing drains.
final class JobQueue<Job: Sendable>: Sendable {
    private struct State {
        var jobs: [Job] = []
        var isClosed = false
    }

    private let state = Guarded(State())

    /// Queues `job`; false (and the job is not queued) when the queue is closed.
    func enqueue(_ job: Job) -> Bool {
        state.withLock(wake: .one) { state in
            guard !state.isClosed else { return false }
            state.jobs.append(job)
            return true
        }
    }

    /// Waits for at least one job and takes up to `limit` of them, oldest first; empty once the queue
    /// is closed and drained.
    func take(upTo limit: Int) -> [Job] {
        // Wakes another consumer after taking, in case jobs remain (several readers share a queue).
        state.wait(wake: .one) { state in
            if state.jobs.isEmpty { return state.isClosed ? [] : nil }
            if state.jobs.count <= limit {
                defer { state.jobs.removeAll(keepingCapacity: true) }
                return state.jobs
            }
            defer { state.jobs.removeFirst(limit) }
            return Array(state.jobs.prefix(limit))
        }
    }

    /// Refuses further jobs and wakes every waiting consumer.
    func close() {
        state.withLock(wake: .all) { $0.isClosed = true }
    }

    var count: Int { state.withLock { $0.jobs.count } }
}
