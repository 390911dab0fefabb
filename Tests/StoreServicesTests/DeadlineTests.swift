import Concurrency
import Foundation
import PaymentProvider
import StoreServices
import TestWaiting
import Testing

@testable import StoreServer

/// The deadline around a provider call: the call's answer wins and ends the timer; a call that
/// does not answer in time counts as a lost answer.
@Suite("Provider call deadline") struct DeadlineTests {
    @Test func theAnswerEndsTheTimer() async throws {
        let timer = DeadlineTimer(name: "test.deadlines")
        let answer = try await CheckoutService.withDeadline(.seconds(3_600), timer: timer) {
            () async throws(ProviderError) in 42
        }
        #expect(answer == 42)
        #expect(timer.pendingCount == 0)
        await timer.stop()
    }

    @Test func aRefusalEndsTheTimerToo() async throws {
        let timer = DeadlineTimer(name: "test.deadlines")
        await #expect(throws: ProviderError.unavailable) {
            try await CheckoutService.withDeadline(.seconds(3_600), timer: timer) {
                () async throws(ProviderError) -> Int in throw .unavailable
            }
        }
        #expect(timer.pendingCount == 0)
        await timer.stop()
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
