import CheckoutKit
import Foundation
import HTTPServer
import PaymentProvider
import StoreAPI
import StoreDatabase

/// The checkout use case: at most one charge and one order per idempotency key, whatever fails.
///
/// 1. Validate (method, token, card numbers, positive amount) — a refusal stores nothing.
/// 2. Reprice the stored basket with ``CheckoutKit`` and compare with the total the shopper
///    confirmed (409 `price_changed`, nothing charged).
/// 3. Reserve: record the attempt as `pending` with its fingerprint, taking stock and the promotion
///    use in the same transaction (409 `out_of_stock` / `promotion_unavailable`, nothing charged).
/// 4. Charge the provider with the attempt's id as its idempotency key.
/// 5. Record the outcome in one transaction: the order (or the decline), the response to replay,
///    the emptied basket, the analytics event.
///
/// A retry with the same key replays the stored response; one whose first attempt lost the
/// provider's answer asks the provider again with the same key — never charging twice.
struct CheckoutService: Sendable {
    /// How long a request holds its attempt before another may take it over.
    static let lease: TimeInterval = 15
    /// How long a provider call may take before its answer counts as lost. Shorter than the lease,
    /// so no call is still running when another request takes the attempt over.
    static let providerTimeout: Duration = .seconds(10)

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
            leaseExpiresAt: clock.now().addingTimeInterval(Self.lease))
        switch try await database.payments.reserve(attempt, now: clock.now()) {
        case .existing(let record):
            return try await resume(record, fingerprint: fingerprint)
        case .reserved(let record):
            return try await charge(record, method: method)
        }
    }

    /// A request with a key the shopper used before.
    private func resume(_ record: PaymentAttemptRecord, fingerprint: CheckoutFingerprint) async throws -> Answer {
        if record.fingerprint != fingerprint.text {
            let field = CheckoutFingerprint(text: record.fingerprint).map { fingerprint.differingField(from: $0) }
            throw APIError(
                .unprocessableContent, type: "idempotency_mismatch",
                message: "This idempotency key was used with a different request. Use a new key for a new payment.",
                field: field ?? "payment_method")
        }
        if let response = record.response {
            return Answer(status: response.status, body: response.body, replayed: true)
        }
        let now = clock.now()
        guard record.leaseExpiresAt <= now,
            try await database.payments.claim(record.id, leaseExpiresAt: now.addingTimeInterval(Self.lease), now: now)
        else {
            // Another request is working on it — or just finished.
            if let finished = try await database.payments.attempt(id: record.id)?.response {
                return Answer(status: finished.status, body: finished.body, replayed: true)
            }
            var error = APIError(
                .conflict, type: "idempotency_in_progress",
                message: "A payment with this idempotency key is still being processed. Retry in a moment.")
            error.headers = ["Retry-After": "1"]
            throw error
        }
        return try await charge(record, method: try Self.method(of: record))
    }

    /// Asks the provider (again) for the attempt's outcome and records it.
    func charge(_ record: PaymentAttemptRecord, method: PaymentMethod) async throws -> Answer {
        let outcome: ChargeOutcome
        do {
            outcome = try await Self.charge(
                ChargeRequest(key: record.id.rawValue, amount: record.amount, method: method), with: provider,
                timeout: Self.providerTimeout)
        } catch {
            // The outcome is unknown: the attempt stays pending, the retry (same key) asks again.
            try? await database.payments.releaseLease(
                record.id, providerRefused: error == .unavailable, now: clock.now())
            throw CheckoutError.unavailable
        }
        // Whole milliseconds: the instant as stored is the instant as answered.
        let now = Date(unixMilliseconds: clock.now().unixMilliseconds)
        let final: PaymentAttemptRecord
        switch outcome {
        case .approved(_, let brand):
            let order = record.order(id: .random(), cardBrand: brand, createdAt: now)
            let body = try StoreJSON.encoder.encode(OrderBody(order))
            final = try await database.payments.recordPaid(
                record, order: order,
                response: StoredResponse(status: 201, body: String(decoding: body, as: UTF8.self)),
                event: .paymentFinished(method: record.method, succeeded: true), now: now)
            stockChanged()
        case .declined(let reason):
            let error = APIError(CheckoutError.declined(reason))
            let body = try StoreJSON.encoder.encode(error.body)
            final = try await database.payments.recordFailed(
                record,
                response: StoredResponse(status: error.status.code, body: String(decoding: body, as: UTF8.self)),
                event: .paymentFinished(method: record.method, succeeded: false), now: now)
        }
        guard let response = final.response else { throw CheckoutError.unavailable }
        return Answer(status: response.status, body: response.body, replayed: false)
    }

    /// Resolves attempts whose request died or gave up. Returns how many reached a definite outcome.
    ///
    /// An attempt that may have charged is resolved by asking the provider again with the same key.
    /// One that cannot have charged (every call was refused before processing) is left for the
    /// shopper's own retry — the store never starts a charge on its own — and given up, with its
    /// reservation released, once it has been left alone for ``StoreConfiguration/abandonedPaymentWindow``.
    @discardableResult
    func reconcile() async -> Int {
        var resolved = 0
        let now = clock.now()
        let lease = now.addingTimeInterval(Self.lease)
        guard let abandoned = try? await database.payments.abandonedAttempts(now: now) else { return 0 }
        for record in abandoned {
            if record.mayHaveCharged {
                guard (try? await database.payments.claim(record.id, leaseExpiresAt: lease, now: now)) == true,
                    let method = try? Self.method(of: record)
                else { continue }
                if (try? await charge(record, method: method)) != nil { resolved += 1 }
            } else if now.timeIntervalSince(record.createdAt) >= configuration.abandonedPaymentWindow {
                guard
                    (try? await database.payments.claim(record.id, leaseExpiresAt: lease, now: now, toCharge: false))
                        == true,
                    let body = try? StoreJSON.encoder.encode(Self.expired.body)
                else { continue }
                let response = StoredResponse(
                    status: Self.expired.status.code, body: String(decoding: body, as: UTF8.self))
                if (try? await database.payments.expireUncharged(record.id, response: response, now: now)) == true {
                    resolved += 1
                }
            }
        }
        return resolved
    }

    /// The answer kept for an attempt given up without a charge.
    static let expired = APIError(
        .conflict, type: "payment_expired",
        message: "This payment was never completed and nothing was charged. Please start the payment again.")

    /// `provider.charge(request)`, or ``ProviderError/timedOut`` when it takes longer than `timeout`
    /// (the call itself is left to finish on its own).
    static func charge(
        _ request: ChargeRequest, with provider: any PaymentProvider, timeout: Duration
    )
        async throws(ProviderError) -> ChargeOutcome
    {
        let first = FirstResult<Result<ChargeOutcome, ProviderError>>()
        let result = await withCheckedContinuation { continuation in
            first.install(continuation)
            Task {
                do throws(ProviderError) {
                    first.resume(with: .success(try await provider.charge(request)))
                } catch {
                    first.resume(with: .failure(error))
                }
            }
            Task {
                try? await Task.sleep(for: timeout)
                first.resume(with: .failure(.timedOut))
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
