import CheckoutKit
import Foundation
import StoreSQL

/// What ``PaymentRepository/reserve(_:now:)`` found.
public enum ReservationOutcome: Hashable, Sendable {
    /// A new attempt was recorded as pending, with its stock and promotion use reserved and its
    /// provider call marked as in flight.
    case reserved(PaymentAttemptRecord)
    /// The shopper already has an attempt with this idempotency key; nothing was changed.
    case existing(PaymentAttemptRecord)
    /// The shopper has another attempt, under another key, that may still charge: one basket is
    /// paid at most once, so nothing was recorded.
    case blocked(by: PaymentAttemptRecord)
    /// The basket changed since it was priced (a line, a quantity, the code — or it was paid):
    /// nothing was recorded; price it again.
    case basketChanged
}

/// Where a pass over unresolved attempts got to: the last attempt it saw.
public struct UnresolvedCursor: Hashable, Sendable {
    public let createdAt: Date
    public let id: AttemptID

    public init(after attempt: PaymentAttemptRecord) {
        createdAt = attempt.createdAt
        id = attempt.id
    }
}

/// What became of an attempt whose provider call gave no definite answer.
public enum CallRelease: Hashable, Sendable {
    /// The attempt stays pending: its outcome must be asked of the provider.
    case kept
    /// Nothing can have been charged for the attempt: it was removed and its stock and promotion
    /// use given back. A retry with the same key starts afresh.
    case withdrawn
}

/// Payment attempts and the orders they become — the store's side of exactly-once checkout.
///
/// An attempt is recorded as `pending` *before* the provider is called, in the same transaction
/// that takes the stock and the promotion use it needs (so an order that cannot be filled is never
/// charged, and stock never goes below zero). After the provider answers, one more transaction
/// records the outcome: paid → the order and the paid lines taken out of the basket; declined →
/// the reservation is given back; refused before processing → the attempt is withdrawn. A shopper
/// has at most one pending attempt (a partial unique index backs this), so one basket is paid at
/// most once whatever the keys; unique constraints on (shopper, idempotency key) and on the
/// order's attempt are the other backstops. See docs/DESIGN.md, "Exactly-once checkout".
public struct PaymentRepository: Sendable {
    let database: any SQLDatabase
    /// The caller's presence key, written into the attempts it reserves and claims.
    let holder: Int64?

    /// - Parameter holder: the caller's ``ServerPresence/holder``, if it has one.
    public init(database: any SQLDatabase, holder: Int64? = nil) {
        self.database = database
        self.holder = holder
    }

    /// Records `attempt` as pending and reserves its stock and promotion use — unless the shopper
    /// already has an attempt with this key (`.existing`), another attempt that may still charge
    /// (`.blocked`), or the basket is no longer the version that was priced (`.basketChanged`).
    ///
    /// - Throws: ``CheckoutKit/CheckoutError/outOfStock(_:)`` (naming every short product) or
    ///   ``CheckoutKit/CheckoutError/promotionUnavailable(_:)``; nothing is recorded then.
    public func reserve(_ attempt: NewPaymentAttempt, now: Date) async throws -> ReservationOutcome {
        if database.dialect == .postgres, let record = try await reserveInOneRoundTrip(attempt, now: now) {
            return .reserved(record)
        }
        do {
            return try await database.write { connection in
                // What stands in the way — an attempt with this key, the basket's version, another
                // attempt that may still charge — read in one statement; when something does, the
                // transaction is rolled back (``Refusal``) and nothing it took is kept. On
                // PostgreSQL the basket's row is locked by a statement of its own first (sent with
                // it), so two checkouts of one basket queue there, and the checks, a statement begun
                // after the wait, see what the one before committed. SQLite has one writer, so
                // reading is enough (and dirties no page). Then the stock and the promotion use.
                let shopper = attempt.shopperID.rawValue
                let basketLock: [SQLQuery] =
                    connection.dialect == .postgres
                    ? ["SELECT version FROM baskets WHERE shopper_id = \(shopper) FOR UPDATE"] : []
                let answers = try connection.queryEach(
                    basketLock + [
                        """
                        SELECT version,
                        (SELECT id FROM payment_attempts
                         WHERE shopper_id = \(shopper) AND idempotency_key = \(attempt.key.rawValue)) AS existing_id,
                        (SELECT id FROM payment_attempts WHERE shopper_id = \(shopper) AND state = 'pending') AS open_id
                        FROM baskets WHERE shopper_id = \(shopper)
                        """
                    ])
                let standing = answers.last?.first
                // Without a basket row the statement finds nothing: the key is looked up alone.
                let existing =
                    try standing.map { try $0.decode("existing_id", as: String?.self) }
                    ?? Self.attemptID(shopper: attempt.shopperID, key: attempt.key.rawValue, on: connection)
                if let existing, let record = try Self.attempt(id: AttemptID(rawValue: existing), on: connection) {
                    throw Refusal(outcome: .existing(record))
                }
                guard let standing, try standing.decode("version", as: Int64.self) == attempt.basketVersion else {
                    throw Refusal(outcome: .basketChanged)
                }
                if let open = try standing.decode("open_id", as: String?.self),
                    let record = try Self.attempt(id: AttemptID(rawValue: open), on: connection)
                {
                    throw Refusal(outcome: .blocked(by: record))
                }
                let lines = attempt.quote.lines.sorted(by: { $0.productID < $1.productID })
                let moves = lines.map { StockMove(product: $0.productID, change: -$0.quantity.value) }
                let taken = try StockLedger.apply(moves, onlyIfActive: true, on: connection)
                let short = zip(lines, taken).compactMap { line, stock in stock == nil ? line.productID : nil }
                guard short.isEmpty else { throw CheckoutError.outOfStock(short) }
                try StockLedger.record(
                    moves, stocks: taken, reason: .sale, note: nil, actor: .shop, attempt: attempt.id, now: now,
                    on: connection)
                if let promotion = Self.promotionUsed(by: attempt.quote),
                    try connection.execute(Self.promotionUse(promotion, now: now)) != 1
                {
                    throw CheckoutError.promotionUnavailable(promotion)
                }
                try Self.insert(attempt, holder: holder, now: now, on: connection)
                return .reserved(try PaymentAttemptRecord(attempt, holder: holder, now: now))
            }
        } catch let refusal as Refusal {
            return refusal.outcome
        } catch let error as DatabaseError where error.kind == .uniqueViolation {
            // A concurrent request committed first: with the same key, or another open attempt.
            if let existing = try await self.attempt(shopper: attempt.shopperID, key: attempt.key.rawValue) {
                return .existing(existing)
            }
            if let open = try await database.lookup({ try Self.openAttempt(of: attempt.shopperID, on: $0) }) {
                return .blocked(by: open)
            }
            // The other attempt is no longer open: it was paid or given up meanwhile, so the basket
            // is not what was priced any more.
            return .basketChanged
        }
    }

    /// On PostgreSQL, the reservation as it goes when nothing stands in the way, in one round trip:
    /// `BEGIN`, every statement and the `COMMIT` are sent at once, and no answer is read between
    /// them. What ``reserve(_:now:)`` would check is what the statements expect (``Schema/version13``):
    /// the basket's row, locked, still at the version priced; each product's stock taken (the same
    /// conditional update, with its ledger line in the same statement); the promotion's use
    /// counted; no attempt with this key, and none open (the unique indexes are the backstop). The
    /// attempt is written before the stock, so a refusal of it touches no product.
    /// Whatever stands in the way fails its statement, the transaction is rolled back and `nil` is
    /// answered: nothing was kept, and the careful way, which reads each answer, says what it was.
    private func reserveInOneRoundTrip(_ attempt: NewPaymentAttempt, now: Date) async throws -> PaymentAttemptRecord? {
        do {
            return try await database.write { [holder] connection in
                let shopper = attempt.shopperID.rawValue
                let moves = attempt.quote.lines.sorted(by: { $0.productID < $1.productID })
                    .map { StockMove(product: $0.productID, change: -$0.quantity.value) }
                try connection.executeDeferred(
                    .expectingOneRow(
                        """
                        SELECT version FROM baskets
                        WHERE shopper_id = \(shopper) AND version = \(attempt.basketVersion) FOR UPDATE
                        """, "the basket as priced"))
                // No attempt with this key and none open, read as the careful way reads them: a
                // read waits for no one. (Left to the unique indexes, a second attempt's insert
                // would wait for a payment being recorded for the open one — which waits for this
                // basket's row: a deadlock, found only after a second.) The indexes stay the
                // backstop. Then the attempt, before the stock: a storm of taps on one basket
                // touches no product.
                try connection.executeDeferred(
                    """
                    SELECT store_expect(NOT EXISTS (
                        SELECT 1 FROM payment_attempts
                        WHERE shopper_id = \(shopper)
                          AND (idempotency_key = \(attempt.key.rawValue) OR state = 'pending')), 'no attempt in the way')
                    """)
                try Self.insert(attempt, holder: holder, now: now, on: connection)
                for move in StockLedger.expectedMoves(
                    moves, reason: .sale, actor: .shop, attempt: attempt.id, onlyIfActive: true, now: now)
                {
                    try connection.executeDeferred(move)
                }
                if let promotion = Self.promotionUsed(by: attempt.quote) {
                    try connection.executeDeferred(
                        .expectingOneRow(
                            "\(Self.promotionUse(promotion, now: now)) RETURNING code", "the promotion usable"))
                }
                return try PaymentAttemptRecord(attempt, holder: holder, now: now)
            }
        } catch let error as DatabaseError where error.kind == .expectationFailed || error.kind == .uniqueViolation {
            return nil
        }
    }

    /// Takes over a pending attempt nobody works on any more — its lease ran out (its request died
    /// or gave up), or its holder's presence is gone (its server died) — so that this caller may
    /// resolve it. A call still marked in flight was cut off, so the attempt is
    /// marked, for good, as one that may have charged.
    ///
    /// - Parameter call: the provider call the caller is about to make, marked as in flight in the
    ///   same write; `nil` to take the attempt without calling `charge` (to look its key up).
    /// - Returns: `false` when someone else holds it or it is no longer pending.
    public func claim(_ id: AttemptID, leaseExpiresAt: Date, now: Date, call: ProviderCallID?) async throws -> Bool {
        let takeover = Takeover(holder: holder)
        return try await database.write { [holder] connection in
            try connection.execute(
                """
                UPDATE payment_attempts
                SET lease_expires_at = \(leaseExpiresAt.unixMilliseconds), updated_at = \(now.unixMilliseconds),
                    may_have_charged = CASE WHEN call_id IS NULL THEN may_have_charged ELSE 1 END,
                    call_id = \(call?.rawValue), holder = \(holder)
                WHERE id = \(id.rawValue) AND state = 'pending'
                  AND \(takeover.isFree(now: now, dialect: connection.dialect))
                """) == 1
        }
    }

    /// Ends `call`, which gave no definite answer, and this caller's hold on the attempt.
    ///
    /// - Parameter providerRefused: the provider refused the call before processing it, so *this*
    ///   call charged nothing. When no other call may have charged either, the attempt is withdrawn:
    ///   removed, its stock and promotion use given back at once. Otherwise (or when the answer was
    ///   lost) it stays pending and is marked, for good, as one that may have charged, and its lease
    ///   ends so that a retry or reconciliation may take it at once.
    @discardableResult
    public func releaseCall(
        _ id: AttemptID, call: ProviderCallID, providerRefused: Bool, now: Date
    ) async throws -> CallRelease {
        try await database.write { connection in
            if providerRefused,
                let attempt = try Self.attempt(id: id, on: connection), attempt.state == .pending,
                attempt.callInFlight == call, !attempt.answerLost
            {
                try Self.withdraw(attempt, now: now, on: connection)
                return .withdrawn
            }
            try connection.execute(
                """
                UPDATE payment_attempts
                SET lease_expires_at = \(now.unixMilliseconds), updated_at = \(now.unixMilliseconds),
                    may_have_charged = CASE WHEN \(providerRefused) = 1 THEN may_have_charged ELSE 1 END,
                    call_id = CASE WHEN call_id = \(call.rawValue) THEN NULL ELSE call_id END
                WHERE id = \(id.rawValue) AND state = 'pending'
                """)
            return .kept
        }
    }

    /// Ends this caller's hold on a pending attempt it took without calling the provider (a lookup
    /// that got no answer), so that the next pass may take it at once.
    public func releaseLease(_ id: AttemptID, now: Date) async throws {
        try await database.write { connection in
            try connection.execute(
                """
                UPDATE payment_attempts
                SET lease_expires_at = \(now.unixMilliseconds), updated_at = \(now.unixMilliseconds)
                WHERE id = \(id.rawValue) AND state = 'pending'
                """)
        }
    }

    /// Withdraws a pending attempt the provider has never seen (its lookup said so, and the key is
    /// now closed there): removed, its stock and promotion use given back. The caller holds the
    /// attempt's lease. Returns whether it was withdrawn.
    public func withdrawUnseen(_ id: AttemptID, now: Date) async throws -> Bool {
        try await database.write { connection in
            guard let attempt = try Self.attempt(id: id, on: connection), attempt.state == .pending else {
                return false
            }
            try Self.withdraw(attempt, now: now, on: connection)
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
    /// the paid lines taken out of the basket and the analytics event, in one transaction.
    ///
    /// The order belongs to whoever holds the attempt now (a login may have carried it from an
    /// anonymous shopper to the customer). Only what was paid leaves the basket: each paid line's
    /// quantity is taken off, so a line added or raised meanwhile stays; the code goes with the
    /// last line, or when it is the one this order used.
    ///
    /// Idempotent: when the attempt is no longer pending (another request or server recorded its
    /// outcome first), nothing is written and the attempt as recorded is returned.
    public func recordPaid(
        _ attempt: PaymentAttemptRecord, order: Order, response: StoredResponse, event: AnalyticsEvent?, now: Date
    ) async throws -> PaymentAttemptRecord {
        if database.dialect == .postgres,
            let paid = try await recordPaidInOneRoundTrip(
                attempt, order: order, response: response, event: event, now: now)
        {
            return paid
        }
        return try await database.write { connection in
            // The attempt, finished unless it was already; then its shopper and basket version, and
            // the basket it now belongs to (a login may have carried it), in one round trip. On
            // PostgreSQL the basket's row is locked until the commit. (The shopper is read after
            // the update rather than answered by it: SQLite gathers `RETURNING` rows in a temporary
            // table, which costs more than the read; see ``StockLedger/apply(_:onlyIfActive:on:)``.)
            let finishing = try connection.execute(
                """
                UPDATE payment_attempts
                SET state = 'succeeded', response_status = \(response.status), response_body = \(response.body),
                    order_id = \(order.id.rawValue), call_id = NULL, updated_at = \(now.unixMilliseconds)
                WHERE id = \(attempt.id.rawValue) AND state = 'pending'
                """)
            guard finishing == 1 else { return try Self.attempt(id: attempt.id, on: connection) ?? attempt }
            let lock: SQLQuery = connection.dialect == .postgres ? " FOR UPDATE" : ""
            let answers = try connection.queryEach([
                "SELECT shopper_id, basket_version FROM payment_attempts WHERE id = \(attempt.id.rawValue)",
                """
                SELECT version FROM baskets
                WHERE shopper_id = (SELECT shopper_id FROM payment_attempts WHERE id = \(attempt.id.rawValue))\(lock)
                """,
            ])
            guard let finished = answers.first?.first else {
                throw DatabaseError.decoding(column: "shopper_id", expected: "the attempt just finished")
            }
            let shopper = ShopperID(rawValue: try finished.decode("shopper_id"))
            try Self.insert(order, shopper: shopper, attempt: attempt.id, on: connection)
            try BasketRepository.takeOut(
                attempt.lines, promotion: attempt.promotionCode, from: shopper,
                pricedVersion: try finished.decode("basket_version"),
                currentVersion: try answers.last?.first?.decode("version", as: Int64.self), now: now, on: connection)
            if let event { try AnalyticsRepository.insert(event, at: now, on: connection) }
            return attempt.finished(.succeeded, response: response, orderID: order.id)
        }
    }

    /// On PostgreSQL, recording a payment as it goes when nothing happened meanwhile, in one round
    /// trip (see ``reserveInOneRoundTrip(_:now:)``): the statements expect the attempt still
    /// pending, with the shopper and the basket version it was reserved with, and the basket still
    /// at that version — so the whole basket goes. Otherwise (the outcome was recorded already, a
    /// login carried the attempt, the shopper changed the basket) `nil` is answered, nothing was
    /// kept, and ``recordPaid(_:order:response:event:now:)`` takes its careful way.
    private func recordPaidInOneRoundTrip(
        _ attempt: PaymentAttemptRecord, order: Order, response: StoredResponse, event: AnalyticsEvent?, now: Date
    ) async throws -> PaymentAttemptRecord? {
        do {
            return try await database.write { connection in
                let shopper = attempt.shopperID
                try connection.executeDeferred(
                    .expectingOneRow(
                        """
                        UPDATE payment_attempts
                        SET state = 'succeeded', response_status = \(response.status), response_body = \(response.body),
                            order_id = \(order.id.rawValue), call_id = NULL, updated_at = \(now.unixMilliseconds)
                        WHERE id = \(attempt.id.rawValue) AND state = 'pending' AND shopper_id = \(shopper.rawValue)
                          AND basket_version = \(attempt.basketVersion)
                        RETURNING id
                        """, "the attempt pending, with its shopper and basket version"))
                try Self.insert(order, shopper: shopper, attempt: attempt.id, on: connection)
                try BasketRepository.takeOutWhole(
                    from: shopper, version: attempt.basketVersion, now: now, on: connection)
                if let event { try AnalyticsRepository.insert(event, at: now, on: connection) }
                return attempt.finished(.succeeded, response: response, orderID: order.id)
            }
        } catch let error as DatabaseError where error.kind == .expectationFailed {
            return nil
        }
    }

    /// Records a definite failure (a decline, and why): the response to replay, the reservation
    /// given back and the analytics event, in one transaction. Idempotent like
    /// ``recordPaid(_:order:response:event:now:)``.
    public func recordFailed(
        _ attempt: PaymentAttemptRecord, reason: DeclineReason, response: StoredResponse, event: AnalyticsEvent?,
        now: Date
    ) async throws
        -> PaymentAttemptRecord
    {
        try await database.write { connection in
            guard
                try Self.finish(
                    attempt.id, state: .failed, response: response, orderID: nil, declineReason: reason, now: now,
                    on: connection)
            else { return try Self.attempt(id: attempt.id, on: connection) ?? attempt }
            try Self.release(attempt, now: now, on: connection)
            if let event { try AnalyticsRepository.insert(event, at: now, on: connection) }
            return attempt.finished(.failed, response: response, orderID: nil, declineReason: reason)
        }
    }

    /// The shopper's attempt with idempotency key `key`, if any.
    public func attempt(shopper: ShopperID, key: String) async throws -> PaymentAttemptRecord? {
        try await database.lookup { connection in try Self.attempt(shopper: shopper, key: key, on: connection) }
    }

    /// The attempt `id`, if any.
    public func attempt(id: AttemptID) async throws -> PaymentAttemptRecord? {
        try await database.lookup { connection in try Self.attempt(id: id, on: connection) }
    }

    /// Pending attempts nobody works on by `now` (their lease ran out, or their holder is gone) and
    /// that may have charged, oldest first, after
    /// the one at `cursor` (for paging through all of them): their outcome must be asked of the
    /// provider. Since a refusal withdraws its attempt at once, every pending attempt is one.
    public func unresolvedAttempts(
        now: Date, after cursor: UnresolvedCursor? = nil, limit: Int = 100
    ) async throws -> [PaymentAttemptRecord] {
        let createdAfter = cursor?.createdAt.unixMilliseconds ?? Int64.min
        let idAfter = cursor?.id.rawValue ?? ""
        let takeover = Takeover(holder: holder)
        return try await database.read { connection in
            let rows = try connection.query(
                """
                SELECT \(PaymentAttemptRecord.columns) FROM payment_attempts
                WHERE state = 'pending' AND \(takeover.isFree(now: now, dialect: connection.dialect))
                  AND (created_at > \(createdAfter) OR (created_at = \(createdAfter) AND id > \(idAfter)))
                ORDER BY created_at, id LIMIT \(limit)
                """)
            return try rows.map { row in try Self.record(row, on: connection) }
        }
    }

    /// The shopper's attempt that may still charge, if any (at most one).
    public func openAttempt(of shopper: ShopperID) async throws -> PaymentAttemptRecord? {
        try await database.lookup { connection in try Self.openAttempt(of: shopper, on: connection) }
    }

    /// Carries `source`'s attempts and orders to `target` (a login), so that a retry with the same
    /// key after logging in settles the same attempt and the orders are found in the account.
    ///
    /// An attempt whose key `target` already used stays with `source`, as does a pending one while
    /// `target` has its own pending attempt (each is still resolved with the provider).
    static func carry(from source: ShopperID, to target: ShopperID, on connection: any SQLConnection) throws {
        // The attempt now belongs to another basket: its priced version means nothing there.
        try connection.execute(
            """
            UPDATE payment_attempts SET shopper_id = \(target.rawValue), basket_version = -1
            WHERE shopper_id = \(source.rawValue)
              AND idempotency_key NOT IN (
                  SELECT idempotency_key FROM payment_attempts WHERE shopper_id = \(target.rawValue))
              AND (state <> 'pending' OR NOT EXISTS (
                  SELECT 1 FROM payment_attempts WHERE shopper_id = \(target.rawValue) AND state = 'pending'))
            """)
        try connection.execute(
            "UPDATE orders SET shopper_id = \(target.rawValue) WHERE shopper_id = \(source.rawValue)")
    }

    // MARK: Steps

    /// The promotion whose use an order counts: only one that actually gave a discount.
    static func promotionUsed(by quote: CheckoutQuote) -> PromotionCode? {
        quote.breakdown.discount.isZero ? nil : quote.breakdown.promotionCode
    }

    /// What stood in the way of a reservation: thrown inside its transaction so that what the
    /// transaction took is rolled back, and answered as the reservation's outcome.
    private struct Refusal: Error {
        let outcome: ReservationOutcome
    }

    /// Removes a pending attempt that cannot have charged and gives back what it reserved.
    static func withdraw(_ attempt: PaymentAttemptRecord, now: Date, on connection: any SQLConnection) throws {
        try release(attempt, now: now, on: connection)
        try connection.execute("DELETE FROM payment_attempts WHERE id = \(attempt.id.rawValue) AND state = 'pending'")
    }

    static func openAttempt(of shopper: ShopperID, on connection: any SQLConnection) throws -> PaymentAttemptRecord? {
        try connection.queryFirst(
            """
            SELECT \(PaymentAttemptRecord.columns) FROM payment_attempts
            WHERE shopper_id = \(shopper.rawValue) AND state = 'pending'
            """
        ).map { row in try record(row, on: connection) }
    }

    /// Gives back what a failed attempt reserved: its stock, as `sale_released` lines of the
    /// ledger, and its promotion use.
    static func release(_ attempt: PaymentAttemptRecord, now: Date, on connection: any SQLConnection) throws {
        let lines = attempt.lines.sorted(by: { $0.productID < $1.productID }).filter { $0.quantity > 0 }
        try StockLedger.moveEach(
            lines.map { StockMove(product: $0.productID, change: $0.quantity) }, reason: .saleReleased, note: nil,
            actor: .shop,
            attempt: attempt.id, onlyIfActive: false, now: now, on: connection)
        if let code = attempt.discount.isZero ? nil : attempt.promotionCode {
            try connection.executeDeferred(
                "UPDATE promotions SET times_used = times_used - 1 WHERE code = \(code.rawValue) AND times_used > 0")
        }
    }

    /// Counts one use of `code` when it can still be used — not used up, inside its window, not
    /// disabled: the update changes one row, or none.
    static func promotionUse(_ code: PromotionCode, now: Date) -> SQLQuery {
        let at = now.unixMilliseconds
        return """
            UPDATE promotions SET times_used = times_used + 1
            WHERE code = \(code.rawValue)
              AND (usage_limit IS NULL OR times_used < usage_limit)
              AND (starts_at IS NULL OR starts_at <= \(at))
              AND (ends_at IS NULL OR ends_at > \(at))
              AND disabled_at IS NULL
            """
    }

    static func insert(
        _ attempt: NewPaymentAttempt, holder: Int64?, now: Date, on connection: any SQLConnection
    ) throws {
        let quote = attempt.quote
        let token: String? =
            if case .card(let token) = quote.method { token.rawValue } else { nil }
        try connection.executeDeferred(
            """
            INSERT INTO payment_attempts (
                id, shopper_id, idempotency_key, request_fingerprint, state, currency, subtotal_minor, discount_minor,
                shipping_minor, fee_minor, amount_minor, payment_method, payment_token, promotion_code,
                lease_expires_at, holder, call_id, basket_version, created_at, updated_at)
            VALUES (
                \(attempt.id.rawValue), \(attempt.shopperID.rawValue), \(attempt.key.rawValue), \(attempt.fingerprint),
                'pending', \(quote.amountDue.currency.code), \(quote.breakdown.subtotal.minorUnits),
                \(quote.breakdown.discount.minorUnits), \(quote.breakdown.shipping.minorUnits),
                \(quote.payment.fee.minorUnits), \(quote.amountDue.minorUnits), \(quote.method.kind.rawValue), \(token),
                \(promotionUsed(by: quote)?.rawValue), \(attempt.leaseExpiresAt.unixMilliseconds), \(holder),
                \(attempt.call.rawValue), \(attempt.basketVersion), \(now.unixMilliseconds), \(now.unixMilliseconds))
            """)
        for (position, line) in quote.lines.enumerated() {
            try connection.executeDeferred(
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
        try connection.executeDeferred(
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
        try connection.executeDeferred(
            """
            INSERT INTO order_events (order_id, at, kind, actor)
            VALUES (\(order.id.rawValue), \(order.createdAt.unixMilliseconds), 'paid', 'customer')
            """)
        for (position, line) in order.lines.enumerated() {
            try connection.executeDeferred(
                """
                INSERT INTO order_lines (order_id, position, product_id, title, unit_price_minor, quantity, line_total_minor)
                VALUES (\(order.id.rawValue), \(position), \(line.productID.rawValue), \(line.title),
                        \(line.unitPrice.minorUnits), \(line.quantity), \(line.lineTotal.minorUnits))
                """)
        }
    }

    /// Moves a pending attempt to its final state; `false` when it was no longer pending.
    static func finish(
        _ id: AttemptID, state: PaymentAttemptState, response: StoredResponse, orderID: OrderID?,
        declineReason: DeclineReason? = nil, now: Date, on connection: any SQLConnection
    ) throws -> Bool {
        try connection.execute(
            """
            UPDATE payment_attempts
            SET state = \(state.rawValue), response_status = \(response.status), response_body = \(response.body),
                order_id = \(orderID?.rawValue), decline_reason = \(declineReason?.rawValue), call_id = NULL,
                updated_at = \(now.unixMilliseconds)
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

    /// The id of the shopper's attempt with idempotency key `key`, if any.
    static func attemptID(shopper: ShopperID, key: String, on connection: any SQLConnection) throws -> String? {
        try connection.queryFirst(
            "SELECT id FROM payment_attempts WHERE shopper_id = \(shopper.rawValue) AND idempotency_key = \(key)"
        )?.decode("id")
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
