import CheckoutKit
import Testing

/// docs/BEHAVIOUR.md §5 "Never charge twice", the client-side rules.
@Suite struct CheckoutAttemptTests {
    final class KeyMaker {
        var made: [IdempotencyKey] = []
        func make() -> IdempotencyKey {
            let key = IdempotencyKey(rawValue: "key-\(made.count + 1)") ?? .random()
            made.append(key)
            return key
        }
    }

    @Test("one key per attempt, made at the first tap")
    func firstTapMakesAKey() {
        var attempt = CheckoutAttempt()
        let keys = KeyMaker()
        #expect(attempt.key == nil)
        let key = attempt.payTapped(makeKey: keys.make)
        #expect(key?.rawValue == "key-1")
        #expect(attempt.isPaying)
    }

    @Test("a second tap while paying does nothing")
    func secondTapWhilePaying() {
        var attempt = CheckoutAttempt()
        let keys = KeyMaker()
        _ = attempt.payTapped(makeKey: keys.make)
        #expect(attempt.payTapped(makeKey: keys.make) == nil)
        #expect(keys.made.count == 1)
    }

    @Test("a retry after unavailable reuses the key")
    func retryAfterUnavailableReusesTheKey() {
        var attempt = CheckoutAttempt()
        let keys = KeyMaker()
        let first = attempt.payTapped(makeKey: keys.make)
        attempt.finished(.failed(.unavailable))
        #expect(attempt.failure == .unavailable)
        #expect(attempt.payTapped(makeKey: keys.make) == first)
        #expect(keys.made.count == 1)
    }

    @Test("a decline ends the attempt: the next try gets a new key")
    func declineEndsTheAttempt() {
        var attempt = CheckoutAttempt()
        let keys = KeyMaker()
        let first = attempt.payTapped(makeKey: keys.make)
        attempt.finished(.failed(.declined(.cardDeclined)))
        #expect(attempt.failure == .declined(.cardDeclined))
        let second = attempt.payTapped(makeKey: keys.make)
        #expect(second != first)
        #expect(second?.rawValue == "key-2")
    }

    @Test("success ends the attempt")
    func successEndsTheAttempt() {
        var attempt = CheckoutAttempt()
        let keys = KeyMaker()
        _ = attempt.payTapped(makeKey: keys.make)
        attempt.finished(.paid)
        #expect(attempt.phase == .paid)
        #expect(attempt.key == nil)
        #expect(attempt.payTapped(makeKey: keys.make)?.rawValue == "key-2")
    }

    @Test(
        "every definite refusal ends its key",
        arguments: [
            CheckoutError.priceChanged(expected: eur(1), actual: eur(2)), .outOfStock([ProductID(1)]), .invalidAmount,
            .emptyBasket, .unknownPaymentMethod, .invalidCardToken, .cardNumberRejected,
        ])
    func definiteRefusalsEndTheKey(error: CheckoutError) {
        var attempt = CheckoutAttempt()
        let keys = KeyMaker()
        _ = attempt.payTapped(makeKey: keys.make)
        attempt.finished(.failed(error))
        #expect(attempt.key == nil)
    }

    @Test("a refusal that is no payment outcome ends the key too")
    func refusalEndsTheKey() {
        var attempt = CheckoutAttempt()
        let keys = KeyMaker()
        let first = attempt.payTapped(makeKey: keys.make)
        attempt.finished(.refused)
        #expect(attempt.phase == .ready)
        #expect(attempt.key == nil)
        #expect(attempt.payTapped(makeKey: keys.make) != first)
    }

    @Test("a basket change is a new attempt with a new key and clears the failure")
    func basketChangeStartsOver() {
        var attempt = CheckoutAttempt()
        let keys = KeyMaker()
        let first = attempt.payTapped(makeKey: keys.make)
        attempt.finished(.failed(.unavailable))
        let accepted = attempt.basketChanged()
        #expect(accepted)
        #expect(attempt.failure == nil)
        #expect(attempt.phase == .ready)
        let second = attempt.payTapped(makeKey: keys.make)
        #expect(second != first)
    }

    @Test("edits are ignored while paying")
    func editsWhilePaying() {
        var attempt = CheckoutAttempt()
        let keys = KeyMaker()
        let first = attempt.payTapped(makeKey: keys.make)
        let accepted = attempt.basketChanged()
        #expect(!accepted)
        #expect(attempt.key == first)
        #expect(attempt.isPaying)
    }

    @Test("an answer that arrives when nothing is being paid is ignored")
    func strayAnswers() {
        var attempt = CheckoutAttempt()
        attempt.finished(.paid)
        #expect(attempt.phase == .ready)
    }
}
