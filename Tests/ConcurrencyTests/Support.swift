import Concurrency
import Foundation
import TestWaiting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An error a test's closure throws on purpose.
struct DeliberateError: Error, Equatable {
    var tag = "deliberate"
}

/// Runs `body` on `count` threads of their own at once (each gets its index) and returns when
/// every one has finished, without blocking the caller's thread.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    let finished = Locked(0)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        for index in 0..<count {
            Thread {
                body(index)
                let isLast = finished.withLock { finished in
                    finished += 1
                    return finished == count
                }
                if isLast { continuation.resume() }
            }.start()
        }
    }
}

/// A gate that jobs on the pool's threads wait at until the test opens it.
final class Gate: Sendable {
    private let isOpen = Locked(false)

    /// Blocks the calling (pool) thread until the gate is open.
    func pass() {
        isOpen.wait { $0 ? () : nil }
    }

    func open() {
        isOpen.withLock(waking: .all) { $0 = true }
    }
}

/// The calling thread's identity, comparable across threads.
func currentThreadID() -> UInt {
    #if canImport(Glibc)
    UInt(pthread_self())
    #else
    UInt(bitPattern: pthread_self())
    #endif
}
