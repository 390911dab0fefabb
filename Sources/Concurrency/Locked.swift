#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value shared between threads, read and changed only while its lock is held; a thread can also
/// sleep until another thread brings the value into a state it waits for.
///
/// ```swift
/// let hits = Locked(0)
/// hits.withLock { $0 += 1 }
///
/// let answer = Locked<Int?>(nil)
/// answer.withLock(waking: .all) { $0 = 42 }      // on one thread
/// let value = answer.wait { $0 }                 // on another: blocks until it is set
/// ```
///
/// A final class over a `pthread_mutex_t` and a `pthread_cond_t`, rather than
/// `Synchronization.Mutex` (the package also builds for macOS 14, where `Mutex` is unavailable) or
/// `NSLock`/`NSCondition` (a Foundation object and a dynamic call on every access). The waits are
/// for threads of our own (``BlockingPool``'s, a synchronous `main`): never call ``wait(until:)``
/// from the Swift concurrency pool, whose few threads must not block.
///
/// `@unchecked Sendable` when `Value` is `Sendable`: the value is reachable only inside the methods
/// below, each of which holds the mutex while it runs the caller's closure.
public final class Locked<Value> {
    /// Which threads sleeping in ``Locked/wait(until:)`` a change wakes.
    public enum Wake: Sendable {
        /// One waiting thread: enough when every waiter waits for the same thing and any one of them
        /// can take what changed (a job for a set of identical workers).
        case one
        /// Every waiting thread: when waiters wait for different states, or all must see the change.
        case all
    }

    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>
    @usableFromInline var value: Value

    /// A box holding `value`.
    public init(_ value: Value) {
        self.value = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        #if os(Linux)
        // Timed waits measure against the monotonic clock, so a change of the wall clock does not
        // stretch or cut them short.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        #else
        pthread_cond_init(condition, nil)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    ///
    /// `body` must not block, nor call back into code that takes the same lock (the mutex is not
    /// recursive). Throws what `body` throws, with its type.
    @inlinable
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Runs `body` like ``withLock(_:)``, then wakes `wake` of the threads waiting in
    /// ``wait(until:)`` (even when `body` throws), before the lock is released.
    @inlinable
    public func withLock<Result, Failure: Error>(
        waking wake: Wake, _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            switch wake {
            case .one: pthread_cond_signal(condition)
            case .all: pthread_cond_broadcast(condition)
            }
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// Blocks the calling thread until `ready` returns a value, and returns it.
    ///
    /// `ready` runs with the lock held: first at once, then each time another thread changes the
    /// value with ``withLock(waking:_:)`` and wakes this one. Only for threads that may block (see
    /// the type's documentation). Throws what `ready` throws.
    public func wait<Result, Failure: Error>(
        until ready: (inout Value) throws(Failure) -> Result?
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let result = try ready(&value) { return result }
            pthread_cond_wait(condition, mutex)
        }
    }

    /// Blocks the calling thread until `ready` returns a value, or until `timeout` has passed;
    /// `nil` on timeout.
    ///
    /// Like ``wait(until:)``, with `ready` run once more when the time is up.
    public func wait<Result, Failure: Error>(
        until ready: (inout Value) throws(Failure) -> Result?, timeout: Duration
    ) throws(Failure) -> Result? {
        let deadline = Deadline(after: timeout)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let result = try ready(&value) { return result }
            if deadline.hasPassed { return nil }
            deadline.wait(on: condition, with: mutex)
        }
    }
}

extension Locked where Value: Sendable {
    /// A copy of the value, read under the lock.
    @inlinable
    public var current: Value { withLock { $0 } }
}

extension Locked: @unchecked Sendable where Value: Sendable {}

/// When a timed wait gives up, on the clock the platform's condition variables wait with.
private struct Deadline {
    #if os(Linux)
    private let time: timespec

    init(after timeout: Duration) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = max(timeout, .zero).components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var wholeSeconds = Int(now.tv_sec) + Int(clamping: seconds)
        if nanoseconds >= 1_000_000_000 {
            nanoseconds -= 1_000_000_000
            wholeSeconds += 1
        }
        time = timespec(tv_sec: wholeSeconds, tv_nsec: nanoseconds)
    }

    var hasPassed: Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return (now.tv_sec, now.tv_nsec) >= (time.tv_sec, time.tv_nsec)
    }

    func wait(on condition: UnsafeMutablePointer<pthread_cond_t>, with mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        var time = time
        pthread_cond_timedwait(condition, mutex, &time)
    }
    #else
    private let end: ContinuousClock.Instant

    init(after timeout: Duration) {
        end = ContinuousClock.now.advanced(by: max(timeout, .zero))
    }

    var hasPassed: Bool { ContinuousClock.now >= end }

    func wait(on condition: UnsafeMutablePointer<pthread_cond_t>, with mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        let (seconds, attoseconds) = ContinuousClock.now.duration(to: end).components
        var relative = timespec(
            tv_sec: Int(clamping: max(seconds, 0)), tv_nsec: Int(max(attoseconds, 0) / 1_000_000_000))
        pthread_cond_timedwait_relative_np(condition, mutex, &relative)
    }
    #endif
}
