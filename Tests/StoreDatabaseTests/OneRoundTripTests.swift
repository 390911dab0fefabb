import CheckoutKit
import Concurrency
import Foundation
import StoreDatabase
import StoreSQL
import StoreTestSupport
import TestWaiting
import Testing

/// On PostgreSQL a reservation and the payment that follows, when nothing stands in the way, each
/// send `BEGIN`, their statements and `COMMIT` at once: one round trip. What the careful way would
/// check, the statements expect (`store_expect`); when it does not hold, the transaction is rolled
/// back and the careful way answers as before. These tests count the round trips and look at what
/// each way left in the database. The careful way is SQLite's only way, so what it names is tested
/// on both.
@Suite("Checkout writes in one round trip (PostgreSQL)") struct OneRoundTripTests {
    private static func roundTrips(_ database: StoreDatabase, _ body: () async throws -> Void) async throws -> Int {
        let reporting = try #require(database.sql as? any SQLQueueReporting)
        let before = try #require(reporting.roundTrips)
        try await body()
        return try #require(reporting.roundTrips) - before
    }

    @Test("a reservation and its payment are one round trip each, and write what the careful way writes")
    func reservationAndPayment() async throws {
        try await withStoreDatabase(.postgres) { database in
            let shopper = try await makeShopper(database, lines: [(3, 2), (1, 1)], promotion: "RUN10")
            let attempt = try await makeAttempt(database, shopper: shopper)
            let stocks = (one: try await stock(database, 1), three: try await stock(database, 3))
            var reserved: PaymentAttemptRecord?
            let reserving = try await Self.roundTrips(database) {
                guard case .reserved(let record) = try await database.payments.reserve(attempt, now: testNow) else {
                    Issue.record("expected a reservation")
                    return
                }
                reserved = record
            }
            #expect(reserving == 1)
            let record = try #require(reserved)
            #expect(try await database.payments.attempt(id: attempt.id) == record)
            #expect(record.basketVersion == attempt.basketVersion)
            #expect(try await stock(database, 1) == stocks.one - 1)
            #expect(try await stock(database, 3) == stocks.three - 2)
            #expect(try await timesUsed(database, "RUN10") == 1)
            // Each sale's ledger line, with the stock it left, written by the statement that took it.
            let sale = try #require(try await database.products.movements(of: ProductID(3)).first)
            #expect(sale.change == -2 && sale.reason == .sale && sale.actor == "shop")
            #expect(sale.stockAfter == stocks.three - 2)

            let order = record.order(id: .random(), cardBrand: nil, createdAt: testNow)
            var paid: PaymentAttemptRecord?
            let paying = try await Self.roundTrips(database) {
                paid = try await database.payments.recordPaid(
                    record, order: order, response: StoredResponse(status: 201, body: "{}"),
                    event: .paymentFinished(method: record.method, succeeded: true), now: testNow)
            }
            #expect(paying == 1)
            #expect(paid?.state == .succeeded && paid?.orderID == order.id)
            #expect(try await database.payments.attempt(id: attempt.id)?.state == .succeeded)
            #expect(try await database.orders.order(order.id, for: shopper)?.order.lines.count == 2)
            let basket = try await database.baskets.basket(for: shopper)
            #expect(basket.lines.isEmpty && basket.promotionCode == nil)
            #expect(basket.version == attempt.basketVersion + 1)
            #expect(try await database.products.movements(of: ProductID(3)).first?.orderID == order.id)

            // Recording it again finds it recorded: the careful way answers, and nothing is written.
            let again = try await database.payments.recordPaid(
                record, order: record.order(id: .random(), cardBrand: nil, createdAt: testNow),
                response: StoredResponse(status: 201, body: "{}"), event: nil, now: testNow)
            #expect(again.orderID == order.id)
            #expect(try await database.orders.orders(for: shopper).count == 1)
        }
    }

    @Test(
        "what stands in the way of a reservation rolls back what it took, and the careful way names it",
        arguments: Backend.allCases)
    func refusedReservations(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            // Too little stock: the first product's units, taken by the same transaction, are back.
            try await database.sql.write { connection in
                try connection.execute("UPDATE products SET stock = 1 WHERE id = 11")
            }
            let ledger = try await database.products.movements(of: ProductID(2))
            let short = try await makeShopper(database, lines: [(2, 1), (11, 2)], promotion: "RUN10")
            let tooMany = try await makeAttempt(database, shopper: short)
            await #expect(throws: CheckoutError.outOfStock([ProductID(11)])) {
                try await database.payments.reserve(tooMany, now: testNow)
            }
            #expect(try await stock(database, 2) == 80)
            #expect(try await timesUsed(database, "RUN10") == 0)
            #expect(try await database.products.movements(of: ProductID(2)) == ledger)
            #expect(try await database.payments.attempt(id: tooMany.id) == nil)

            // The basket changed since it was priced.
            let shopper = try await makeShopper(database, lines: [(2, 1)])
            let stale = try await makeAttempt(database, shopper: shopper, key: "stale")
            _ = try await database.baskets.setQuantity(try quantity(2), of: ProductID(2), for: shopper, now: testNow)
            #expect(try await database.payments.reserve(stale, now: testNow) == .basketChanged)
            #expect(try await stock(database, 2) == 80)

            // The same key again: the attempt it made.
            let first = try await makeAttempt(database, shopper: shopper, key: "first")
            guard case .reserved(let record) = try await database.payments.reserve(first, now: testNow) else {
                Issue.record("expected a reservation")
                return
            }
            #expect(try await database.payments.reserve(first, now: testNow) == .existing(record))
            // Another key while that one is open.
            let second = try await makeAttempt(database, shopper: shopper, key: "second")
            #expect(try await database.payments.reserve(second, now: testNow) == .blocked(by: record))
            #expect(try await stock(database, 2) == 78)

            // A code used up meanwhile.
            try await database.sql.write { connection in
                try connection.execute("UPDATE promotions SET usage_limit = times_used WHERE code = 'RUN10'")
            }
            let coded = try await makeShopper(database, lines: [(4, 1)], promotion: "RUN10")
            let attempt = try await makeAttempt(database, shopper: coded)
            await #expect(throws: CheckoutError.promotionUnavailable(try code("RUN10"))) {
                try await database.payments.reserve(attempt, now: testNow)
            }
            #expect(try await database.payments.attempt(id: attempt.id) == nil)
        }
    }

    @Test("a basket changed during the payment keeps what was added; the careful way takes out only what was paid")
    func paymentAfterTheBasketChanged() async throws {
        try await withStoreDatabase(.postgres) { database in
            let shopper = try await makeShopper(database, lines: [(1, 1)])
            let attempt = try await makeAttempt(database, shopper: shopper)
            guard case .reserved(let record) = try await database.payments.reserve(attempt, now: testNow) else {
                Issue.record("expected a reservation")
                return
            }
            _ = try await database.baskets.setQuantity(try quantity(1), of: ProductID(2), for: shopper, now: testNow)
            let order = record.order(id: .random(), cardBrand: nil, createdAt: testNow)
            let trips = try await Self.roundTrips(database) {
                _ = try await database.payments.recordPaid(
                    record, order: order, response: StoredResponse(status: 201, body: "{}"), event: nil, now: testNow)
            }
            #expect(trips > 1, "the one-round-trip way cannot have emptied a basket that changed")
            #expect(try await database.baskets.basket(for: shopper).lines.map(\.product.id) == [ProductID(2)])
            #expect(try await database.orders.order(order.id, for: shopper) != nil)
        }
    }

    @Test("a session and what pricing its basket needs are read in one round trip, as they are read apart")
    func sessionWithPricingInputs() async throws {
        try await withStoreDatabase(.postgres) { database in
            // A signed-in customer with a code: the basket, its lines, the promotion and the customer.
            let customer = try #require(try await database.customers.customer(email: "free@onlinestore.test"))
            let hash = Array("customer session".utf8)
            let shopper = try await database.sessions.createCustomerSession(
                tokenHash: hash, customer: customer.id, previous: nil, now: testNow,
                expiresAt: testNow.addingTimeInterval(3_600))
            _ = try await database.baskets.setQuantity(try quantity(2), of: ProductID(3), for: shopper, now: testNow)
            try await database.baskets.setPromotion(try code("RUN10"), for: shopper, now: testNow)
            var read: (session: SessionRecord, pricing: PricingInputs)?
            let trips = try await Self.roundTrips(database) {
                read = try await database.sessions.sessionWithPricingInputs(tokenHash: hash, now: testNow)
            }
            #expect(trips == 1)
            let found = try #require(read)
            #expect(found.session == (try await database.sessions.session(tokenHash: hash, now: testNow)))
            #expect(found.session.customerID == customer.id)
            let apart = try await database.baskets.pricingInputs(for: shopper, customer: customer.id)
            #expect(found.pricing == apart)
            #expect(found.pricing.promotion?.code == (try code("RUN10")))
            #expect(found.pricing.subscription != nil)
            #expect(found.pricing.basket.lines.map(\.product.id) == [ProductID(3)])

            // An anonymous shopper who never added anything: an empty basket, no customer.
            let anonymousHash = Array("anonymous session".utf8)
            _ = try await database.sessions.createAnonymousSession(
                tokenHash: anonymousHash, now: testNow, expiresAt: testNow.addingTimeInterval(60))
            let anonymous = try #require(
                try await database.sessions.sessionWithPricingInputs(tokenHash: anonymousHash, now: testNow))
            #expect(anonymous.pricing.basket.lines.isEmpty && anonymous.pricing.basket.version == 0)
            #expect(anonymous.pricing.promotion == nil && anonymous.pricing.subscription == nil)
            // Expired, or unknown: nothing, not another shopper's basket.
            #expect(
                try await database.sessions.sessionWithPricingInputs(
                    tokenHash: anonymousHash, now: testNow.addingTimeInterval(61)) == nil)
            #expect(
                try await database.sessions.sessionWithPricingInputs(tokenHash: Array("x".utf8), now: testNow) == nil)
        }
    }

    /// A second key on a basket whose open attempt is being recorded as paid: the reservation reads
    /// the attempt in the way (a read waits for no one) and is answered at once. Had it left the
    /// open attempt to the unique index, its insert would wait for the recording transaction, which
    /// in a real checkout waits for the basket's row this reservation holds: a deadlock. Here the
    /// recording transaction (an update of the open attempt's row) is held open; the answer must
    /// come while it is.
    @Test("a second key is answered at once while the open attempt's payment is being recorded")
    func aSecondKeyDoesNotWaitForTheRecording() async throws {
        try await withStoreDatabase(.postgres) { database in
            let shopper = try await makeShopper(database, lines: [(2, 1)])
            let first = try await makeAttempt(database, shopper: shopper, key: "first")
            guard case .reserved(let open) = try await database.payments.reserve(first, now: testNow) else {
                Issue.record("expected a reservation")
                return
            }
            // The recording: an update of the open attempt's row, rolled back at the end.
            let recording = try await HeldTransaction(
                database,
                running: "UPDATE payment_attempts SET updated_at = updated_at + 1 WHERE id = \(open.id.rawValue)",
                rollingBack: true)
            let second = try await makeAttempt(database, shopper: shopper, key: "second")
            let answered = Locked<ReservationOutcome?>(nil)
            let reserving = Task {
                let outcome = try await database.payments.reserve(second, now: testNow)
                answered.withLock { $0 = outcome }
            }
            let answeredWhileHeld = try await eventually { answered.withLock { $0 } != nil }
            try await recording.finish()
            try await reserving.value
            #expect(answeredWhileHeld, "the reservation waited for the recording transaction")
            #expect(answered.withLock { $0 } == .blocked(by: open))
        }
    }
}
