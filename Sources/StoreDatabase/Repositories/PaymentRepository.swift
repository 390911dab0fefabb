import CheckoutKit
import Foundation
import StoreSQL

/// What ``PaymentRepository/reserve(_:now:)`` found.
public enum ReservationOutcome: Hashable, Sendable {
    /// A new attempt was recorded as pending, with its stock and promotion use reserved.
    case reserved(PaymentAttemptRecord)
    /// The shopper already has an attempt with this idempotency key; nothing was changed.
    case existing(PaymentAttemptRecord)
}

/// Payment attempts and the orders they become — the store's side of exactly-once checkout.
///
/// An attempt is recorded as `pending` *before* the provider is called, in the same transaction
/// that takes the stock and the promotion use it needs (so an order that cannot be filled is never
/// charged, and stock never goes below zero). After the provider answers, one more transaction
/// records the outcome: paid → the order, the emptied basket and the analytics event; declined →
/// the reservation is given back. A unique constraint on (shopper, idempotency key) and one on the
/// order's attempt are the hard backstops.
public struct PaymentRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Records `attempt` as pending and reserves its stock and promotion use, or returns the
    /// shopper's existing attempt with the same key.
    ///
    /// - Throws: ``CheckoutKit/CheckoutError/outOfStock(_:)`` (naming every short product) or
    ///   ``CheckoutKit/CheckoutError/promotionUnavailable(_:)``; nothing is recorded then.
    public func reserve(_ attempt: NewPaymentAttempt, now: Date) async throws -> ReservationOutcome {
        do {
            return try await database.write { connection in
                if let existing = try Self.attempt(
                    shopper: attempt.shopperID, key: attempt.key.rawValue, on: connection)
                {
                    return .existing(existing)
                }
                try Self.takeStock(for: attempt.quote.lines, on: connection)
                if let code = Self.promotionUsed(by: attempt.quote) {
                    try Self.usePromotion(code, now: now, on: connection)
                }
                try Self.insert(attempt, now: now, on: connection)
                return .reserved(try PaymentAttemptRecord(attempt, now: now))
            }
        } catch let error as DatabaseError where error.kind == .uniqueViolation {
            // A concurrent request with the same key committed first.
            guard let existing = try await self.attempt(shopper: attempt.shopperID, key: attempt.key.rawValue) else {
                throw error
            }
            return .existing(existing)
        }
    }

    /// Takes over a pending attempt whose lease has run out (its request died or gave up), so
    /// that this caller may ask the provider again. Returns `false` when someone else holds it or
    /// it is no longer pending.
    ///
    /// - Parameter toCharge: the caller is about to call the provider, so a call is recorded as in
    ///   flight (in the same write); `false` to take it without calling.
    public func claim(_ id: AttemptID, leaseExpiresAt: Date, now: Date, toCharge: Bool = true) async throws -> Bool {
        try await database.write { connection in
            try connection.execute(
                """
                UPDATE payment_attempts SET lease_expires_at = \(leaseExpiresAt.unixMilliseconds),
                                            call_in_flight = CASE WHEN \(toCharge) = 1 THEN 1 ELSE call_in_flight END,
                                            updated_at = \(now.unixMilliseconds)
                WHERE id = \(id.rawValue) AND state = 'pending' AND lease_expires_at <= \(now.unixMilliseconds)
                """) == 1
        }
    }

    /// Ends this caller's hold on a pending attempt whose provider call gave no answer, so that a
    /// retry with the same key may claim it at once instead of waiting for the lease to run out.
    ///
    /// - Parameter providerRefused: the provider refused the call before processing it, so *this*
    ///   call charged nothing. Otherwise its answer was lost and the attempt is marked, for good, as
    ///   one that may have charged (an earlier lost answer is never forgotten by a later refusal).
    public func releaseLease(_ id: AttemptID, providerRefused: Bool, now: Date) async throws {
        try await database.write { connection in
            try connection.execute(
                """
                UPDATE payment_attempts
                SET lease_expires_at = \(now.unixMilliseconds), updated_at = \(now.unixMilliseconds),
                    call_in_flight = 0,
                    may_have_charged = CASE WHEN \(providerRefused) = 1 THEN may_have_charged ELSE 1 END
                WHERE id = \(id.rawValue) AND state = 'pending'
                """)
        }
    }

    /// Gives up a pending attempt that cannot have charged anything (every provider call was refused
    /// before processing) and was left alone: stores `response` to replay, gives the reservation
    /// back. The caller holds the attempt's lease. Returns whether it was expired.
    public func expireUncharged(_ id: AttemptID, response: StoredResponse, now: Date) async throws -> Bool {
        try await database.write { connection in
            guard let attempt = try Self.attempt(id: id, on: connection), attempt.state == .pending,
                !attempt.mayHaveCharged,
                try Self.finish(id, state: .failed, response: response, orderID: nil, now: now, on: connection)
            else { return false }
            try Self.release(attempt, on: connection)
            return true
        }
    }

    /// Ends every lease on pending attempts. Only for a database no other server is using (an
    /// SQLite file at start-up): no request can still be working on them.
    @discardableResult
    public func releaseAllLeases(now: Date) async throws -> Int {
        try await database.write { connection in
            try connection.execute(
                """
                UPDATE payment_attempts SET lease_expires_at = \(now.unixMilliseconds)
                WHERE state = 'pending' AND lease_expires_at > \(now.unixMilliseconds)
                """)
        }
    }

    /// Records that the attempt was paid: the order (prices as charged), the response to replay,
    /// the emptied basket and the analytics event, in one transaction.
    ///
    /// Idempotent: when the attempt is no longer pending (another request or server recorded its
    /// outcome first), nothing is written and the attempt as recorded is returned.
    public func recordPaid(
        _ attempt: PaymentAttemptRecord, order: Order, response: StoredResponse, event: AnalyticsEvent?, now: Date
    ) async throws -> PaymentAttemptRecord {
        try await database.write { connection in
            guard
                try Self.finish(
                    attempt.id, state: .succeeded, response: response, orderID: order.id, now: now, on: connection)
            else { return try Self.attempt(id: attempt.id, on: connection) ?? attempt }
            try Self.insert(order, shopper: attempt.shopperID, attempt: attempt.id, on: connection)
            try BasketRepository.empty(attempt.shopperID, now: now, on: connection)
            if let event { try AnalyticsRepository.insert(event, at: now, on: connection) }
            return attempt.finished(.succeeded, response: response, orderID: order.id)
        }
    }

    /// Records a definite failure (a decline): the response to replay, the reservation given back
    /// and the analytics event, in one transaction. Idempotent like ``recordPaid(_:order:response:event:now:)``.
    public func recordFailed(
        _ attempt: PaymentAttemptRecord, response: StoredResponse, event: AnalyticsEvent?, now: Date
    ) async throws
        -> PaymentAttemptRecord
    {
        try await database.write { connection in
            guard
                try Self.finish(attempt.id, state: .failed, response: response, orderID: nil, now: now, on: connection)
            else { return try Self.attempt(id: attempt.id, on: connection) ?? attempt }
            try Self.release(attempt, on: connection)
            if let event { try AnalyticsRepository.insert(event, at: now, on: connection) }
            return attempt.finished(.failed, response: response, orderID: nil)
        }
    }

    /// The shopper's attempt with idempotency key `key`, if any.
    public func attempt(shopper: ShopperID, key: String) async throws -> PaymentAttemptRecord? {
        try await database.read { connection in try Self.attempt(shopper: shopper, key: key, on: connection) }
    }

    /// The attempt `id`, if any.
    public func attempt(id: AttemptID) async throws -> PaymentAttemptRecord? {
        try await database.read { connection in try Self.attempt(id: id, on: connection) }
    }

    /// Pending attempts whose lease ran out by `now`: their outcome must be asked of the provider.
    public func abandonedAttempts(now: Date, limit: Int = 100) async throws -> [PaymentAttemptRecord] {
        try await database.read { connection in
            let rows = try connection.query(
                """
                SELECT \(PaymentAttemptRecord.columns) FROM payment_attempts
                WHERE state = 'pending' AND lease_expires_at <= \(now.unixMilliseconds)
                ORDER BY created_at LIMIT \(limit)
                """)
            return try rows.map { row in try Self.record(row, on: connection) }
        }
    }

    /// Forgets failed attempts created before `cutoff` (keys are kept at least 24 hours); attempts
    /// that became orders stay as part of the order's record. Returns how many were removed.
    @discardableResult
    public func deleteFailedAttempts(createdBefore cutoff: Date) async throws -> Int {
        try await database.write { connection in
            try connection.execute(
                "DELETE FROM payment_attempts WHERE state = 'failed' AND created_at < \(cutoff.unixMilliseconds)")
        }
    }

    // MARK: Steps

    /// The promotion whose use an order counts: only one that actually gave a discount.
    static func promotionUsed(by quote: CheckoutQuote) -> PromotionCode? {
        quote.breakdown.discount.isZero ? nil : quote.breakdown.promotionCode
    }

    /// Takes the quantities of `lines` from stock, or throws ``CheckoutError/outOfStock(_:)`` naming
    /// every product that is short. Rows are updated in product order so that concurrent
    /// transactions lock them in the same order and cannot deadlock.
    static func takeStock(for lines: [BasketLine], on connection: any SQLConnection) throws {
        var short: [ProductID] = []
        for line in lines.sorted(by: { $0.productID < $1.productID }) {
            let updated = try connection.execute(
                """
                UPDATE products SET stock = stock - \(line.quantity.value)
                WHERE id = \(line.productID.rawValue) AND stock >= \(line.quantity.value)
                """)
            if updated == 0 { short.append(line.productID) }
        }
        guard short.isEmpty else { throw CheckoutError.outOfStock(short) }
    }

    /// Gives back what a failed attempt reserved: its stock and its promotion use.
    static func release(_ attempt: PaymentAttemptRecord, on connection: any SQLConnection) throws {
        for line in attempt.lines.sorted(by: { $0.productID < $1.productID }) {
            try connection.execute(
                "UPDATE products SET stock = stock + \(line.quantity) WHERE id = \(line.productID.rawValue)")
        }
        if let code = attempt.discount.isZero ? nil : attempt.promotionCode {
            try connection.execute(
                "UPDATE promotions SET times_used = times_used - 1 WHERE code = \(code.rawValue) AND times_used > 0")
        }
    }

    /// Counts one use of `code`, or throws ``CheckoutError/promotionUnavailable(_:)`` when it is
    /// used up, outside its window, or gone.
    static func usePromotion(_ code: PromotionCode, now: Date, on connection: any SQLConnection) throws {
        let at = now.unixMilliseconds
        let updated = try connection.execute(
            """
            UPDATE promotions SET times_used = times_used + 1
            WHERE code = \(code.rawValue)
              AND (usage_limit IS NULL OR times_used < usage_limit)
              AND (starts_at IS NULL OR starts_at <= \(at))
              AND (ends_at IS NULL OR ends_at > \(at))
            """)
        guard updated == 1 else { throw CheckoutError.promotionUnavailable(code) }
    }

    static func insert(_ attempt: NewPaymentAttempt, now: Date, on connection: any SQLConnection) throws {
        let quote = attempt.quote
        let token: String? =
            if case .card(let token) = quote.method { token.rawValue } else { nil }
        try connection.execute(
            """
            INSERT INTO payment_attempts (
                id, shopper_id, idempotency_key, request_fingerprint, state, currency, subtotal_minor, discount_minor,
                shipping_minor, fee_minor, amount_minor, payment_method, payment_token, promotion_code,
                lease_expires_at, created_at, updated_at)
            VALUES (
                \(attempt.id.rawValue), \(attempt.shopperID.rawValue), \(attempt.key.rawValue), \(attempt.fingerprint),
                'pending', \(quote.amountDue.currency.code), \(quote.breakdown.subtotal.minorUnits),
                \(quote.breakdown.discount.minorUnits), \(quote.breakdown.shipping.minorUnits),
                \(quote.payment.fee.minorUnits), \(quote.amountDue.minorUnits), \(quote.method.kind.rawValue), \(token),
                \(promotionUsed(by: quote)?.rawValue), \(attempt.leaseExpiresAt.unixMilliseconds), \(now.unixMilliseconds),
                \(now.unixMilliseconds))
            """)
        for (position, line) in quote.lines.enumerated() {
            try connection.execute(
                """
                INSERT INTO payment_attempt_lines (
                    attempt_id, position, product_id, title, unit_price_minor, quantity, line_total_minor)
                VALUES (\(attempt.id.rawValue), \(position), \(line.productID.rawValue), \(line.title),
                        \(line.unitPrice.minorUnits), \(line.quantity.value), \(try line.total().minorUnits))
                """)
        }
    }

    static func insert(_ order: Order, shopper: ShopperID, attempt: AttemptID, on connection: any SQLConnection) throws
    {
        try connection.execute(
            """
            INSERT INTO orders (
                id, shopper_id, attempt_id, status, currency, subtotal_minor, discount_minor, shipping_minor, fee_minor,
                total_minor, payment_method, card_brand, promotion_code, created_at)
            VALUES (
                \(order.id.rawValue), \(shopper.rawValue), \(attempt.rawValue), \(order.status.rawValue),
                \(order.total.currency.code), \(order.subtotal.minorUnits), \(order.discount.minorUnits),
                \(order.shipping.minorUnits), \(order.fee.minorUnits), \(order.total.minorUnits),
                \(order.paymentMethod.rawValue), \(order.cardBrand), \(order.promotionCode?.rawValue),
                \(order.createdAt.unixMilliseconds))
            """)
        for (position, line) in order.lines.enumerated() {
            try connection.execute(
                """
                INSERT INTO order_lines (order_id, position, product_id, title, unit_price_minor, quantity, line_total_minor)
                VALUES (\(order.id.rawValue), \(position), \(line.productID.rawValue), \(line.title),
                        \(line.unitPrice.minorUnits), \(line.quantity), \(line.lineTotal.minorUnits))
                """)
        }
    }

    /// Moves a pending attempt to its final state; `false` when it was no longer pending.
    static func finish(
        _ id: AttemptID, state: PaymentAttemptState, response: StoredResponse, orderID: OrderID?, now: Date,
        on connection: any SQLConnection
    ) throws -> Bool {
        try connection.execute(
            """
            UPDATE payment_attempts
            SET state = \(state.rawValue), response_status = \(response.status), response_body = \(response.body),
                order_id = \(orderID?.rawValue), updated_at = \(now.unixMilliseconds)
            WHERE id = \(id.rawValue) AND state = 'pending'
            """) == 1
    }

    static func attempt(
        shopper: ShopperID, key: String, on connection: any SQLConnection
    ) throws
        -> PaymentAttemptRecord?
    {
        try connection.queryFirst(
            """
            SELECT \(PaymentAttemptRecord.columns) FROM payment_attempts
            WHERE shopper_id = \(shopper.rawValue) AND idempotency_key = \(key)
            """
        ).map { row in try record(row, on: connection) }
    }

    static func attempt(id: AttemptID, on connection: any SQLConnection) throws -> PaymentAttemptRecord? {
        try connection.queryFirst(
            "SELECT \(PaymentAttemptRecord.columns) FROM payment_attempts WHERE id = \(id.rawValue)"
        ).map { row in try record(row, on: connection) }
    }

    static func record(_ row: SQLRow, on connection: any SQLConnection) throws -> PaymentAttemptRecord {
        let currency = try row.money("amount_minor").currency
        let id = try row.decode("id", as: String.self)
        let lines = try connection.query(
            """
            SELECT product_id, title, unit_price_minor, quantity, line_total_minor FROM payment_attempt_lines
            WHERE attempt_id = \(id) ORDER BY position
            """
        ).map { line in try OrderLine.read(line, currency: currency) }
        return try PaymentAttemptRecord.read(row, lines: lines)
    }
}
