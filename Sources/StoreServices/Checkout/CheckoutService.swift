import CheckoutKit
import Concurrency
import Foundation
import PaymentProvider
import StoreDatabase

/// How the first answer to a checkout is written down, to be replayed as it was to a retry with
/// the same key (docs/BEHAVIOUR.md §9.6). The face that answers checkouts decides the words (the
/// JSON API's order or error body); the service keeps them with the outcome, in the outcome's own
/// transaction, and hands them back.
package protocol CheckoutAnswers: Sendable {
    /// The answer that says `order` was paid.
    func paid(_ order: Order) throws -> StoredResponse
    /// The answer that says the provider declined, and why.
    func declined(_ reason: DeclineReason) -> StoredResponse
}

/// What a checkout came to.
package struct CheckoutResult: Sendable {
    package enum Outcome: Hashable, Sendable {
        case paid(OrderID)
        case declined(DeclineReason)
    }

    package let outcome: Outcome
    /// The answer written when the outcome was recorded, for a face that replays it as it was.
    package let answer: StoredResponse
    /// Whether this outcome was recorded by an earlier request with the same key.
    package let replayed: Bool
}

/// The checkout use case: at most one charge per idempotency key, and at most one payment per
/// basket whatever the keys.
///
/// 1. Validate (a positive amount; the face has read a valid method) — a refusal stores nothing.
/// 2. Reprice the stored basket with ``CheckoutKit`` and compare with the total the shopper
///    confirmed (409 `price_changed`, nothing charged).
/// 3. Reserve: record the attempt as `pending` with its fingerprint and the basket version it was
///    priced from, taking stock and the promotion use in the same transaction (409 `out_of_stock` /
///    `promotion_unavailable`, nothing charged). A shopper has at most one pending attempt: another
///    key meanwhile gets 409 `payment_in_progress`.
/// 4. Charge the provider with the attempt's id as its idempotency key.
/// 5. Record the outcome in one transaction: the order (or the decline), the response to replay,
///    the paid lines taken out of the basket, the analytics event. A refusal before processing
///    (`unavailable`) withdraws the attempt and gives its stock back at once.
///
/// A retry with the same key replays the stored response; one whose first attempt lost the
/// provider's answer asks the provider again with the same key — never charging twice. The store
/// resolves attempts left alone by looking their key up at the provider, never by charging.
package struct CheckoutService: Sendable {
    /// How long a request holds its attempt before another may take it over — unless its server is
    /// gone first (``ServerPresence``), which lets another server take it at once.
    package static let lease: TimeInterval = 15
    /// How long a provider call may take before its answer counts as lost. Shorter than the lease,
    /// so no call of a living server is still running when another request takes the attempt over
    /// by the lease.
    package static let providerTimeout: Duration = .seconds(10)
    /// How many times one checkout prices the basket again when it changed under it.
    package static let pricingRounds = 3

    package let database: StoreDatabase
    package let baskets: BasketService
    package let provider: any PaymentProvider
    /// How the answers to replay are written.
    package let answers: any CheckoutAnswers
    package let configuration: StoreConfiguration
    package let clock: StoreClock
    /// Told the products whose stock changed (a paid order's), to refresh what readers see.
    package let stockChanged: @Sendable ([ProductID]) -> Void
    /// Told what each checkout came to — `paid`, `declined`, `replayed`, `unavailable` or `refused` —
    /// for metrics.
    package let outcome: @Sendable (String) -> Void

    package init(
        database: StoreDatabase, baskets: BasketService, provider: any PaymentProvider, answers: any CheckoutAnswers,
        configuration: StoreConfiguration, clock: StoreClock, stockChanged: @escaping @Sendable ([ProductID]) -> Void,
        outcome: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.outcome = outcome
        self.database = database
        self.baskets = baskets
        self.provider = provider
        self.answers = answers
        self.configuration = configuration
        self.clock = clock
        self.stockChanged = stockChanged
    }

    /// Pays the shopper's basket with `method`, once per `key`, if its total is still
    /// `expectedTotal` (the total the shopper confirmed, before the fee).
    ///
    /// - Throws: ``CheckoutKit/CheckoutError`` (`invalidAmount`, `priceChanged`, `outOfStock`,
    ///   `promotionUnavailable`, `paymentInProgress`, `emptyBasket`, `unavailable` — retry with the
    ///   same key), ``IdempotencyError`` (`mismatch`, `inProgress`).
    ///
    /// - Parameter basket: what pricing the basket needs, when the caller read it with the session
    ///   just now (``Sessions/shopperWithBasket(for:)``): the first pricing uses it.
    package func checkout(
        method: PaymentMethod, expectedTotal: Money, key: IdempotencyKey, shopper: Shopper, basket: PricingInputs? = nil
    ) async throws -> CheckoutResult {
        do {
            let result = try await pay(
                method: method, expectedTotal: expectedTotal, key: key, shopper: shopper, basket: basket)
            switch result.outcome {
            case _ where result.replayed: outcome("replayed")
            case .paid: outcome("paid")
            case .declined: outcome("declined")
            }
            return result
        } catch CheckoutError.unavailable {
            outcome("unavailable")
            throw CheckoutError.unavailable
        } catch {
            outcome("refused")
            throw error
        }
    }

    private func pay(
        method: PaymentMethod, expectedTotal: Money, key: IdempotencyKey, shopper: Shopper, basket read: PricingInputs?
    ) async throws -> CheckoutResult {
        guard expectedTotal.isPositive else { throw CheckoutError.invalidAmount }
        let fingerprint = CheckoutFingerprint(method: method, expectedTotal: expectedTotal)

        var refusal = CheckoutError.paymentInProgress
        for round in 0..<Self.pricingRounds {
            let basket = try await baskets.priced(shopper, from: round == 0 ? read : nil)
            let quote = try CheckoutQuote(
                lines: basket.lines, promotion: basket.promotion, tier: basket.tier, shipping: configuration.shipping,
                fees: configuration.fees, method: method)
            do {
                try quote.confirm(expectedTotal: expectedTotal)
            } catch {
                // A retry of a finished attempt meets an emptied (or changed) basket: it replays.
                if let existing = try await database.payments.attempt(shopper: shopper.id, key: key.rawValue) {
                    return try await resume(existing, fingerprint: fingerprint)
                }
                throw error
            }

            let attempt = NewPaymentAttempt(
                id: .random(), shopperID: shopper.id, key: key, fingerprint: fingerprint.text, quote: quote,
                basketVersion: basket.stored.version, leaseExpiresAt: clock.now().addingTimeInterval(Self.lease))
            switch try await database.payments.reserve(attempt, now: clock.now()) {
            case .existing(let record):
                return try await resume(record, fingerprint: fingerprint)
            case .reserved(let record):
                return try await charge(record, method: method, call: attempt.call)
            case .basketChanged:
                // Changed between pricing and reserving (or paid by another key): price it again.
                refusal = .priceChanged(expected: expectedTotal, actual: quote.breakdown.total)
            case .blocked(let open):
                // Another key's attempt may still charge. When nobody is working on it, settle it
                // now with the provider and look at the basket again; otherwise the shopper waits.
                refusal = .paymentInProgress
                guard database.mayClaim(lease: open.leaseExpiresAt, holder: open.holder, now: clock.now()),
                    await settle(open)
                else {
                    throw CheckoutError.paymentInProgress
                }
            }
        }
        throw refusal
    }

    /// A request with a key the shopper used before.
    private func resume(_ record: PaymentAttemptRecord, fingerprint: CheckoutFingerprint) async throws -> CheckoutResult
    {
        if record.fingerprint != fingerprint.text {
            let field = CheckoutFingerprint(text: record.fingerprint).map { fingerprint.differingField(from: $0) }
            throw IdempotencyError.mismatch(field: field ?? "payment_method")
        }
        if let result = Self.result(of: record, replayed: true) { return result }
        let now = clock.now()
        let call = ProviderCallID.random()
        guard database.mayClaim(lease: record.leaseExpiresAt, holder: record.holder, now: now),
            try await database.payments.claim(
                record.id, leaseExpiresAt: now.addingTimeInterval(Self.lease), now: now, call: call)
        else {
            // Another request is working on it — or just finished.
            if let finished = try await database.payments.attempt(id: record.id),
                let result = Self.result(of: finished, replayed: true)
            {
                return result
            }
            throw IdempotencyError.inProgress
        }
        return try await charge(record, method: try Self.method(of: record), call: call)
    }

    /// Asks the provider (again) to charge the attempt, as `call`, and records the outcome.
    private func charge(
        _ record: PaymentAttemptRecord, method: PaymentMethod, call: ProviderCallID
    ) async throws
        -> CheckoutResult
    {
        let request = ChargeRequest(key: record.id.rawValue, amount: record.amount, method: method)
        let provider = self.provider
        let outcome: ChargeOutcome
        do {
            outcome = try await Self.withDeadline(Self.providerTimeout) { () async throws(ProviderError) in
                try await provider.charge(request)
            }
        } catch {
            // Refused before processing: nothing is held any more. Answer lost: the attempt stays
            // pending, and the retry (same key) or reconciliation asks again.
            _ = try? await database.payments.releaseCall(
                record.id, call: call, providerRefused: error == .unavailable, now: clock.now())
            throw CheckoutError.unavailable
        }
        let final = try await recordOutcome(outcome, of: record)
        guard let result = Self.result(of: final, replayed: false) else { throw CheckoutError.unavailable }
        return result
    }

    /// The result an attempt's recorded outcome stands for, or `nil` while it has none.
    static func result(of record: PaymentAttemptRecord, replayed: Bool) -> CheckoutResult? {
        guard let answer = record.response else { return nil }
        switch record.state {
        case .succeeded:
            guard let order = record.orderID else { return nil }
            return CheckoutResult(outcome: .paid(order), answer: answer, replayed: replayed)
        case .failed:
            return CheckoutResult(
                outcome: .declined(record.declineReason ?? .cardDeclined), answer: answer, replayed: replayed)
        case .pending:
            return nil
        }
    }

    /// Records a definite answer of the provider for `record`: the paid order, or the decline.
    private func recordOutcome(
        _ outcome: ChargeOutcome, of record: PaymentAttemptRecord
    ) async throws
        -> PaymentAttemptRecord
    {
        // Whole milliseconds: the instant as stored is the instant as answered.
        let now = Date(unixMilliseconds: clock.now().unixMilliseconds)
        switch outcome {
        case .approved(_, let brand):
            let order = record.order(id: .random(), cardBrand: brand, createdAt: now)
            let final = try await database.payments.recordPaid(
                record, order: order, response: try answers.paid(order),
                event: .paymentFinished(method: record.method, succeeded: true), now: now)
            stockChanged(record.lines.map(\.productID))
            return final
        case .declined(let reason):
            // The decline is kept with the answer to replay for this key, written as it is answered.
            return try await database.payments.recordFailed(
                record, reason: reason, response: answers.declined(reason),
                event: .paymentFinished(method: record.method, succeeded: false), now: now)
        }
    }

    /// Resolves an attempt nobody is working on by asking the provider what became of its key —
    /// never by charging: charged → the order; declined → the decline; never seen → the attempt is
    /// withdrawn and its stock given back. Returns whether it reached a definite outcome.
    package func settle(_ record: PaymentAttemptRecord) async -> Bool {
        let now = clock.now()
        guard
            (try? await database.payments.claim(
                record.id, leaseExpiresAt: now.addingTimeInterval(Self.lease), now: now, call: nil)) == true
        else { return false }
        let provider = self.provider
        let key = record.id.rawValue
        let status: ChargeStatus
        do {
            status = try await Self.withDeadline(Self.providerTimeout) { () async throws(ProviderError) in
                try await provider.status(ofKey: key)
            }
        } catch {
            try? await database.payments.releaseLease(record.id, now: clock.now())
            return false
        }
        switch status {
        case .charged(let chargeID, _, let brand):
            return (try? await recordOutcome(.approved(chargeID: chargeID, cardBrand: brand), of: record)) != nil
        case .declined(let reason):
            return (try? await recordOutcome(.declined(reason), of: record)) != nil
        case .neverSeen:
            return (try? await database.payments.withdrawUnseen(record.id, now: clock.now())) == true
        }
    }

    /// Resolves every attempt that may have charged and that nobody is working on, oldest first,
    /// by looking its key up at the provider. Returns how many reached a definite outcome.
    @discardableResult
    package func reconcile() async -> Int {
        var resolved = 0
        let now = clock.now()
        var cursor: UnresolvedCursor?
        while let page = try? await database.payments.unresolvedAttempts(now: now, after: cursor, limit: 100),
            let last = page.last
        {
            for record in page where await settle(record) { resolved += 1 }
            cursor = UnresolvedCursor(after: last)
        }
        return resolved
    }

    /// The result of `operation`, or ``ProviderError/timedOut`` when it takes longer than `timeout`
    /// (the operation itself is left to finish on its own; its deadline is cancelled as soon as it
    /// answers).
    ///
    /// - Parameter timer: the thread that keeps the deadline (tests give one of their own and watch
    ///   it hold nothing after an answer).
    package static func withDeadline<Value: Sendable>(
        _ timeout: Duration,
        timer: DeadlineTimer = .shared,
        _ operation: @escaping @Sendable () async throws(ProviderError) -> Value
    ) async throws(ProviderError) -> Value {
        let result = await FirstResult<Result<Value, ProviderError>>.within(
            timeout, timer: timer, or: .failure(.timedOut)
        ) {
            do throws(ProviderError) {
                return .success(try await operation())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    package static func method(of record: PaymentAttemptRecord) throws -> PaymentMethod {
        try PaymentMethod(wireName: record.method.rawValue, token: record.paymentToken)
    }
}

/// Resumes a continuation with the first of several results; later ones are dropped.
package final class FirstResult<Value: Sendable>: Sendable {
    /// The value of `operation`, or `fallback` when it takes longer than `timeout` — the operation
    /// itself is left to finish on its own (a blocked C call cannot be cancelled); its timeout is
    /// cancelled as soon as it answers.
    ///
    /// - Parameter timer: the thread that keeps the deadline (``Concurrency/DeadlineTimer``: no task
    ///   and no wake-up of its own for a deadline that is not met).
    package static func within(
        _ timeout: Duration, timer: DeadlineTimer = .shared, or fallback: Value,
        _ operation: @escaping @Sendable () async -> Value
    ) async -> Value {
        let first = FirstResult<Value>()
        return await withCheckedContinuation { continuation in
            first.install(continuation)
            let deadline = timer.after(timeout) { first.resume(with: fallback) }
            Task {
                let value = await operation()
                deadline.cancel()
                first.resume(with: value)
            }
        }
    }

    private let continuation = Locked<CheckedContinuation<Value, Never>?>(nil)

    package init() {}

    package func install(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    package func resume(with value: Value) {
        let waiting = continuation.withLock { current -> CheckedContinuation<Value, Never>? in
            defer { current = nil }
            return current
        }
        waiting?.resume(returning: value)
    }
}

extension StoreDatabase {
    /// Whether a pending attempt or refund held until `lease` by the server with presence key
    /// `holder` is worth trying to claim now: its lease ran out, or another server holds it — the
    /// claim itself then asks the database whether that server is still present.
    func mayClaim(lease: Date, holder: Int64?, now: Date) -> Bool {
        lease <= now || holder != presence?.holder
    }
}
