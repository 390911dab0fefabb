import Concurrency
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct TerminationSignalsTests {
    @Test func aTerminationSignalIsWaitedFor() async throws {
        let received = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            // A thread of its own: the signal mask is per thread, and the pool's threads are shared.
            Thread {
                var previous = sigset_t()
                pthread_sigmask(SIG_SETMASK, nil, &previous)
                TerminationSignals.block()
                pthread_kill(pthread_self(), SIGTERM)
                let received = TerminationSignals.wait()
                pthread_sigmask(SIG_SETMASK, &previous, nil)
                continuation.resume(returning: received)
            }.start()
        }
        #expect(received == SIGTERM)
    }
}
