import Foundation

/// One thread that runs actions once their deadlines pass, unless they are cancelled first: the
/// timeouts of many waits, which almost always end before their deadline.
///
/// ```swift
/// let timeout = DeadlineTimer.shared.after(.seconds(10)) { waiter.giveUp() }
/// // … the wait ended in time:
/// timeout.cancel()
/// ```
///
/// **Why not `Task.sleep`.** A timeout by `Task.sleep` is a task of its own and a timer of the
/// concurrency runtime's, which on Linux is Dispatch's: each one started and each one cancelled
/// wakes Dispatch's timer thread. A checkout's provider call paid that on every call, for a deadline
/// (10 s) it practically never meets: the per-thread counters showed 0.56 of a checkout's 2.6
/// voluntary context switches on Dispatch's thread. Here scheduling and cancelling take a lock and
/// touch a heap; the thread is woken only by a deadline earlier than every one it waits for, which
/// for deadlines of one length is only the first.
///
/// **Actions** run on the timer's thread, one after another, outside its lock: they must be short
/// and must not block (resuming a continuation is the intended use). An action runs at most once,
/// never after ``Timeout/cancel()`` has returned, and never before its deadline.
///
/// **Memory.** A cancelled timeout's action is released at once; its place in the heap (an instant
/// and a number) stays until its deadline passes, or until cancelled places outnumber live ones
/// by far, when the heap is rebuilt without them.
public final class DeadlineTimer: Sendable {
    /// A scheduled action, to cancel when the wait it bounds ended in time.
    public struct Timeout: Sendable {
        fileprivate let timer: DeadlineTimer
        fileprivate let id: UInt64

        /// Withdraws the action if it has not run; once this returns, it never will. Cancelling
        /// again, or after the action ran, does nothing.
        public func cancel() {
            timer.cancel(id)
        }
    }

    /// The timer most of the process shares, started on first use.
    public static let shared = DeadlineTimer(name: "Concurrency.deadlines")

    private struct State: Sendable {
        var heap = MinimumHeap()
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
        var stopped = false
    }

    private let state = Locked(State())
    private let threads = ThreadGroup()

    /// Starts the timer's thread, named `name`.
    public init(name: String) {
        threads.start(named: name) { [state] in Self.run(state) }
    }

    deinit {
        state.withLock(waking: .all) { $0.stopped = true }
    }

    /// Runs `action` on the timer's thread once `delay` has passed (at once for a delay that is not
    /// positive), unless the returned timeout is cancelled first.
    public func after(_ delay: Duration, _ action: @escaping @Sendable () -> Void) -> Timeout {
        let deadline = ContinuousClock.now.advanced(by: delay)
        let (id, isEarliest) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.actions[id] = action
            state.heap.insert(deadline: deadline, id: id)
            return (id, state.heap.first?.id == id)
        }
        // Only a deadline earlier than every other changes how long the thread sleeps.
        if isEarliest { state.withLock(waking: .one) { _ in } }
        return Timeout(timer: self, id: id)
    }

    /// Timeouts scheduled and neither run nor cancelled yet.
    public var pendingCount: Int {
        state.withLock { $0.actions.count }
    }

    /// Ends the thread; actions still pending never run. Waits until the thread has ended.
    public func stop() async {
        state.withLock(waking: .all) { state in
            state.stopped = true
            state.actions.removeAll()
        }
        await threads.allEnded()
    }

    private func cancel(_ id: UInt64) {
        state.withLock { state in
            guard state.actions.removeValue(forKey: id) != nil else { return }
            // Many cancelled places left behind: rebuild the heap from the live ones.
            if state.heap.count > 1_024, state.heap.count > 4 * state.actions.count {
                state.heap.keep { state.actions[$0] != nil }
            }
        }
    }

    /// The thread: sleeps until the earliest deadline, or until a timeout earlier than it is
    /// scheduled, and runs the actions whose deadlines have passed.
    private static func run(_ state: Locked<State>) {
        var waitingFor: ContinuousClock.Instant?
        while true {
            let due: [@Sendable () -> Void]? = state.wait(
                until: { state in
                    if state.stopped { return [] }
                    let now = ContinuousClock.now
                    var due: [@Sendable () -> Void] = []
                    while let first = state.heap.first, first.deadline <= now {
                        state.heap.removeFirst()
                        if let action = state.actions.removeValue(forKey: first.id) { due.append(action) }
                    }
                    if !due.isEmpty { return due }
                    // Woken by an earlier deadline than the one this wait was timed for: time it again.
                    if state.heap.first?.deadline != waitingFor { return [] }
                    return nil
                },
                timeout: waitingFor.map { ContinuousClock.now.duration(to: $0) } ?? .seconds(3_600))
            if state.withLock({ $0.stopped }) { return }
            for action in due ?? [] { action() }
            waitingFor = state.withLock { $0.heap.first?.deadline }
        }
    }
}

/// The timer's heap: (deadline, id) pairs, earliest first.
private struct MinimumHeap: Sendable {
    struct Element: Sendable {
        let deadline: ContinuousClock.Instant
        let id: UInt64
    }

    private var elements: [Element] = []

    var count: Int { elements.count }
    var first: Element? { elements.first }

    mutating func insert(deadline: ContinuousClock.Instant, id: UInt64) {
        elements.append(Element(deadline: deadline, id: id))
        siftUp(from: elements.count - 1)
    }

    mutating func removeFirst() {
        guard !elements.isEmpty else { return }
        elements.swapAt(0, elements.count - 1)
        elements.removeLast()
        siftDown(from: 0)
    }

    /// Keeps only the elements whose id passes `isKept`, in heap order again.
    mutating func keep(_ isKept: (UInt64) -> Bool) {
        elements.removeAll { !isKept($0.id) }
        for index in stride(from: elements.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
    }

    private mutating func siftUp(from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child].deadline < elements[parent].deadline else { return }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < elements.count, elements[left].deadline < elements[smallest].deadline { smallest = left }
            if right < elements.count, elements[right].deadline < elements[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            elements.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
