import CheckoutKit
import Concurrency
import Foundation
import HTTPServer
import PaymentProvider
import StoreAPI
import StoreDatabase

/// The checkout use case: at most one charge per idempotency key, and at most one payment per
/// basket whatever the keys.
///
/// 1. Validate (method, token, card numbers, positive amount) — a refusal stores nothing.
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
struct CheckoutService: Sendable {
    /// How long a request holds its attempt before another may take it over.
    static let lease: TimeInterval = 15
    /// How long a provider call may take before its answer counts as lost. Shorter than the lease,
    /// so no call is still running when another request takes the attempt over.
    static let providerTimeout: Duration = .seconds(10)
    /// How many times one checkout prices the basket again when it changed under it.
    static let pricingRounds = 3

    /// A checkout answer: the status and body of the response, and whether it is a replay.
    struct Answer: Sendable {
        let status: Int
        let body: String
        let replayed: Bool
    }

    let database: StoreDatabase
    let baskets: BasketService
    let provider: any PaymentProvider
    let configuration: StoreConfiguration
    let clock: StoreClock
    /// Called after stock changed (a paid order), to refresh what readers see.
    let stockChanged: @Sendable () -> Void

    func checkout(_ request: CheckoutRequest, key: IdempotencyKey, shopper: Shopper) async throws -> Answer {
        let method = try request.validatedPaymentMethod()
        guard request.expectedTotal.isPositive else { throw CheckoutError.invalidAmount }
        let fingerprint = CheckoutFingerprint(request)

        var refusal = CheckoutError.paymentInProgress
        for _ in 0..<Self.pricingRounds {
            let basket = try await baskets.priced(shopper)
            let quote = try CheckoutQuote(
                lines: basket.lines, promotion: basket.promotion, tier: basket.tier, shipping: configuration.shipping,
                fees: configuration.fees, method: method)
            do {
                try quote.confirm(expectedTotal: request.expectedTotal)
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
                refusal = .priceChanged(expected: request.expectedTotal, actual: quote.breakdown.total)
            case .blocked(let open):
                // Another key's attempt may still charge. When nobody is working on it, settle it
                // now with the provider and look at the basket again; otherwise the shopper waits.
                refusal = .paymentInProgress
                guard open.leaseExpiresAt <= clock.now(), await settle(open) else {
                    throw CheckoutError.paymentInProgress
                }
            }
        }
        throw refusal
    }

    /// A request with a key the shopper used before.
    private func resume(_ record: PaymentAttemptRecord, fingerprint: CheckoutFingerprint) async throws -> Answer {
        if record.fingerprint != fingerprint.text {
            let field = CheckoutFingerprint(text: record.fingerprint).map { fingerprint.differingField(from: $0) }
            throw IdempotencyError.mismatch(field: field ?? "payment_method")
        }
        if let response = record.response {
            return Answer(status: response.status, body: response.body, replayed: true)
        }
        let now = clock.now()
        let call = ProviderCallID.random()
        guard record.leaseExpiresAt <= now,
            try await database.payments.claim(
                record.id, leaseExpiresAt: now.addingTimeInterval(Self.lease), now: now, call: call)
        else {
            // Another request is working on it — or just finished.
            if let finished = try await database.payments.attempt(id: record.id)?.response {
                return Answer(status: finished.status, body: finished.body, replayed: true)
            }
            throw IdempotencyError.inProgress
        }
        return try await charge(record, method: try Self.method(of: record), call: call)
    }

    /// Asks the provider (again) to charge the attempt, as `call`, and records the outcome.
    private func charge(
        _ record: PaymentAttemptRecord, method: PaymentMethod, call: ProviderCallID
    ) async throws
        -> Answer
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
        guard let response = final.response else { throw CheckoutError.unavailable }
        return Answer(status: response.status, body: response.body, replayed: false)
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
            let body = try StoreJSON.encoder.encode(OrderBody(order))
            let final = try await database.payments.recordPaid(
                record, order: order,
                response: StoredResponse(status: 201, body: String(decoding: body, as: UTF8.self)),
                event: .paymentFinished(method: record.method, succeeded: true), now: now)
            stockChanged()
            return final
        case .declined(let reason):
            // The decline is kept as the answer to replay for this key, written as it is answered.
            let error = CheckoutError.declined(reason).httpError
            let body = StoreErrorResponder.jsonBody(of: error)
            return try await database.payments.recordFailed(
                record,
                response: StoredResponse(status: error.status.code, body: String(decoding: body, as: UTF8.self)),
                event: .paymentFinished(method: record.method, succeeded: false), now: now)
        }
    }

    /// Resolves an attempt nobody is working on by asking the provider what became of its key —
    /// never by charging: charged → the order; declined → the decline; never seen → the attempt is
    /// withdrawn and its stock given back. Returns whether it reached a definite outcome.
    func settle(_ record: PaymentAttemptRecord) async -> Bool {
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
            return (try? await database.payments.withdrawUnseen(record.id)) == true
        }
    }

    /// Resolves every attempt that may have charged and that nobody is working on, oldest first,
    /// by looking its key up at the provider. Returns how many reached a definite outcome.
    @discardableResult
    func reconcile() async -> Int {
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
    /// (the operation itself is left to finish on its own; the timer ends as soon as it answers).
    ///
    /// - Parameter sleep: how the timer waits (tests watch it being cancelled).
    static func withDeadline<Value: Sendable>(
        _ timeout: Duration,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        _ operation: @escaping @Sendable () async throws(ProviderError) -> Value
    ) async throws(ProviderError) -> Value {
        let first = FirstResult<Result<Value, ProviderError>>()
        let result = await withCheckedContinuation { continuation in
            first.install(continuation)
            let timer = Task {
                do {
                    try await sleep(timeout)
                } catch {
                    return  // cancelled: the operation answered in time
                }
                first.resume(with: .failure(.timedOut))
            }
            Task {
                let result: Result<Value, ProviderError>
                do throws(ProviderError) {
                    result = .success(try await operation())
                } catch {
                    result = .failure(error)
                }
                timer.cancel()
                first.resume(with: result)
            }
        }
        return try result.get()
    }

    static func method(of record: PaymentAttemptRecord) throws -> PaymentMethod {
        try PaymentMethod(wireName: record.method.rawValue, token: record.paymentToken)
    }
}

/// Resumes a continuation with the first of several results; later ones are dropped.
final class FirstResult<Value: Sendable>: Sendable {
    private let continuation = Locked<CheckedContinuation<Value, Never>?>(nil)

    func install(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume(with value: Value) {
        let waiting = continuation.withLock { current -> CheckedContinuation<Value, Never>? in
            defer { current = nil }
            return current
        }
        waiting?.resume(returning: value)
    }
}
