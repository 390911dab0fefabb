import Foundation
import PaymentProvider
import StoreServices
import TestWaiting
import Testing

@testable import StoreServer

/// The deadline around a provider call: the call's answer wins and ends the timer; a call that
/// does not answer in time counts as a lost answer.
@Suite("Provider call deadline") struct DeadlineTests {
    /// A sleep that lasts until it is cancelled, and says so.
    final class Timer: @unchecked Sendable {
        private let lock = NSLock()
        private var cancelled = false
        var wasCancelled: Bool { lock.withLock { cancelled } }

        func sleep(_ duration: Duration) async throws {
            try await withTaskCancellationHandler {
                while true {
                    try await Task.sleep(for: .milliseconds(5))
                }
            } onCancel: {
                lock.withLock { cancelled = true }
            }
        }
    }

    @Test func theAnswerEndsTheTimer() async throws {
        let timer = Timer()
        let answer = try await CheckoutService.withDeadline(.seconds(3_600), sleep: timer.sleep) {
            () async throws(ProviderError) in 42
        }
        #expect(answer == 42)
        #expect(try await eventually { timer.wasCancelled })
    }

    @Test func aRefusalEndsTheTimerToo() async throws {
        let timer = Timer()
        await #expect(throws: ProviderError.unavailable) {
            try await CheckoutService.withDeadline(.seconds(3_600), sleep: timer.sleep) {
                () async throws(ProviderError) -> Int in throw .unavailable
            }
        }
        #expect(try await eventually { timer.wasCancelled })
    }

    @Test func aCallThatDoesNotAnswerInTimeIsALostAnswer() async throws {
        await #expect(throws: ProviderError.timedOut) {
            try await CheckoutService.withDeadline(.milliseconds(50)) { () async throws(ProviderError) -> Int in
                try? await Task.sleep(for: .seconds(2))
                return 1
            }
        }
    }
}
