import CheckoutKit
import Foundation
import StoreDatabase
import StoreSQL
import StoreTestSupport
import Testing

/// A shopper with `lines` (product id, quantity) in their basket and an optional promotion.
func makeShopper(
    _ database: StoreDatabase, lines: [(Int64, Int)], promotion: String? = nil, token: UInt8 = 0
) async throws -> ShopperID {
    let shopper = try await database.sessions.createAnonymousSession(
        tokenHash: Array("\(UUID().uuidString)".utf8), now: testNow, expiresAt: testNow.addingTimeInterval(3_600))
    for (product, count) in lines {
        _ = try await database.baskets.setQuantity(quantity(count), of: ProductID(product), for: shopper, now: testNow)
    }
    if let promotion { try await database.baskets.setPromotion(PromotionCode(promotion), for: shopper, now: testNow) }
    return shopper
}

/// A pending attempt for the shopper's basket as it is now.
func makeAttempt(
    _ database: StoreDatabase, shopper: ShopperID, key: String = UUID().uuidString, method: PaymentMethod = .qrCode
) async throws -> NewPaymentAttempt {
    let basket = try await database.baskets.basket(for: shopper)
    var promotion: Promotion?
    if let code = basket.promotionCode { promotion = try await database.promotions.promotion(code) }
    let quote = try CheckoutQuote(
        lines: basket.basketLines, promotion: promotion, tier: .free, shipping: .standard, fees: .standard,
        method: method)
    return NewPaymentAttempt(
        id: .random(), shopperID: shopper, key: try #require(IdempotencyKey(rawValue: key)), fingerprint: "fp-\(key)",
        quote: quote, leaseExpiresAt: testNow.addingTimeInterval(30))
}

/// Reserves and records as paid: the order-placing path of a successful checkout.
func placeOrder(_ database: StoreDatabase, _ attempt: NewPaymentAttempt) async throws -> Order {
    guard case .reserved(let record) = try await database.payments.reserve(attempt, now: testNow) else {
        throw DatabaseError(kind: .other, code: "test", message: "expected a new reservation")
    }
    let order = record.order(id: .random(), cardBrand: nil, createdAt: testNow)
    _ = try await database.payments.recordPaid(
        record, order: order, response: StoredResponse(status: 201, body: "{}"),
        event: .paymentFinished(method: record.method, succeeded: true), now: testNow)
    return order
}

func stock(_ database: StoreDatabase, _ product: Int64) async throws -> Int {
    try #require(try await database.catalog.product(ProductID(product))).stock
}

func timesUsed(_ database: StoreDatabase, _ code: String) async throws -> Int {
    try #require(try await database.promotions.promotion(try StoreDatabaseTests.code(code))).timesUsed
}

@Suite("Payment attempts and orders") struct PaymentRepositoryTests {
    @Test(arguments: Backend.allCases)
    func aPaidAttemptBecomesAnOrderAtomically(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await makeShopper(database, lines: [(1, 1), (2, 1), (3, 2)], promotion: "RUN10")
            let stockBefore = try await stock(database, 3)
            let attempt = try await makeAttempt(database, shopper: shopper, method: .card(CardToken("tok_visa")))
            let order = try await placeOrder(database, attempt)

            #expect(order.total == eur(45_36))  // 45.00 + 0.8 % card fee
            #expect(try await stock(database, 3) == stockBefore - 2)
            #expect(try await timesUsed(database, "RUN10") == 1)
            #expect(try await database.baskets.basket(for: shopper).lines.isEmpty)
            #expect(try await database.baskets.basket(for: shopper).promotionCode == nil)
            let stored = try #require(try await database.orders.order(order.id, for: shopper))
            #expect(stored == order)
            #expect(try await database.orders.orders(for: shopper) == [order])
            let record = try #require(try await database.payments.attempt(id: attempt.id))
            #expect(record.state == .succeeded)
            #expect(record.orderID == order.id)
            #expect(record.response == StoredResponse(status: 201, body: "{}"))
            #expect(
                try await database.analytics.count(
                    named: "payment_finished", properties: ["method": "card", "succeeded": "true"]) == 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func theSameKeyFindsTheExistingAttemptAndRecordingTwiceMakesOneOrder(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await makeShopper(database, lines: [(2, 1)])
            let first = try await makeAttempt(database, shopper: shopper, key: "key-1")
            guard case .reserved(let record) = try await database.payments.reserve(first, now: testNow) else {
                Issue.record("expected a reservation")
                return
            }
            let again = try await makeAttempt(database, shopper: shopper, key: "key-1")
            #expect(try await database.payments.reserve(again, now: testNow) == .existing(record))
            #expect(try await stock(database, 2) == 80 - 1)  // reserved once

            let order = record.order(id: .random(), cardBrand: nil, createdAt: testNow)
            let response = StoredResponse(status: 201, body: "first")
            _ = try await database.payments.recordPaid(
                record, order: order, response: response, event: nil, now: testNow)
            let second = try await database.payments.recordPaid(
                record, order: record.order(id: .random(), cardBrand: nil, createdAt: testNow),
                response: StoredResponse(status: 201, body: "second"), event: nil, now: testNow)
            #expect(second.response == response)
            #expect(try await database.orders.orders(for: shopper).map(\.id) == [order.id])
            // A failure recorded after the payment changes nothing either.
            _ = try await database.payments.recordFailed(
                record, response: StoredResponse(status: 402, body: "x"), event: nil, now: testNow)
            #expect(try await stock(database, 2) == 80 - 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func aDeclineGivesTheReservationBack(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await makeShopper(database, lines: [(11, 2)], promotion: "RUN10")
            let before = try await stock(database, 11)
            let attempt = try await makeAttempt(
                database, shopper: shopper, method: .card(CardToken("tok_chargeDeclined")))
            guard case .reserved(let record) = try await database.payments.reserve(attempt, now: testNow) else {
                Issue.record("expected a reservation")
                return
            }
            #expect(try await stock(database, 11) == before - 2)
            #expect(try await timesUsed(database, "RUN10") == 1)
            let failed = try await database.payments.recordFailed(
                record, response: StoredResponse(status: 402, body: "declined"),
                event: .paymentFinished(method: .card, succeeded: false), now: testNow)
            #expect(failed.state == .failed)
            #expect(try await stock(database, 11) == before)
            #expect(try await timesUsed(database, "RUN10") == 0)
            #expect(try await database.baskets.basket(for: shopper).lines.count == 1)  // the basket is kept
            #expect(try await database.orders.orders(for: shopper).isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func outOfStockRecordsNothing(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            try await database.sql.write { connection in
                try connection.execute("UPDATE products SET stock = 1 WHERE id = 11")
            }
            let shopper = try await makeShopper(database, lines: [(2, 1), (11, 2)], promotion: "RUN10")
            let attempt = try await makeAttempt(database, shopper: shopper)
            await #expect(throws: CheckoutError.outOfStock([ProductID(11)])) {
                try await database.payments.reserve(attempt, now: testNow)
            }
            #expect(try await stock(database, 11) == 1)
            #expect(try await stock(database, 2) == 80)
            #expect(try await timesUsed(database, "RUN10") == 0)
            #expect(try await database.payments.attempt(id: attempt.id) == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func anotherShoppersOrderIsNotFound(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let alice = try await makeShopper(database, lines: [(1, 1)])
            let bob = try await makeShopper(database, lines: [(2, 1)])
            let order = try await placeOrder(database, try await makeAttempt(database, shopper: alice))
            #expect(try await database.orders.order(order.id, for: bob) == nil)
            #expect(try await database.orders.orders(for: bob).isEmpty)
            #expect(try await database.orders.order(order.id, for: alice) != nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func anExpiredLeaseCanBeClaimedOnce(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await makeShopper(database, lines: [(1, 1)])
            let attempt = try await makeAttempt(database, shopper: shopper)
            _ = try await database.payments.reserve(attempt, now: testNow)
            #expect(try await database.payments.abandonedAttempts(now: testNow).isEmpty)
            #expect(
                try await !database.payments.claim(
                    attempt.id, leaseExpiresAt: testNow.addingTimeInterval(60), now: testNow))
            let later = testNow.addingTimeInterval(31)
            #expect(try await database.payments.abandonedAttempts(now: later).map(\.id) == [attempt.id])
            #expect(
                try await database.payments.claim(attempt.id, leaseExpiresAt: later.addingTimeInterval(30), now: later))
            #expect(
                try await !database.payments.claim(attempt.id, leaseExpiresAt: later.addingTimeInterval(30), now: later)
            )
        }
    }

    @Test(
        "failed attempts are forgotten after the retention; paid ones stay with their order",
        arguments: Backend.allCases)
    func retention(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await makeShopper(database, lines: [(1, 1)])
            let declined = try await makeAttempt(database, shopper: shopper, key: "declined")
            guard case .reserved(let record) = try await database.payments.reserve(declined, now: testNow) else {
                Issue.record("expected a reservation")
                return
            }
            _ = try await database.payments.recordFailed(
                record, response: StoredResponse(status: 402, body: "{}"), event: nil, now: testNow)
            let paid = try await placeOrder(database, try await makeAttempt(database, shopper: shopper, key: "paid"))
            #expect(try await database.payments.deleteFailedAttempts(createdBefore: testNow) == 0)
            #expect(try await database.payments.deleteFailedAttempts(createdBefore: testNow.addingTimeInterval(1)) == 1)
            #expect(try await database.payments.attempt(shopper: shopper, key: "declined") == nil)
            #expect(try await database.payments.attempt(shopper: shopper, key: "paid")?.orderID == paid.id)
        }
    }

    @Test("a lost answer is never forgotten by a later refusal", arguments: Backend.allCases)
    func mayHaveChargedIsSticky(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await makeShopper(database, lines: [(1, 1)])
            let attempt = try await makeAttempt(database, shopper: shopper)
            _ = try await database.payments.reserve(attempt, now: testNow)
            // The first call is in flight: it may charge.
            #expect(try await database.payments.attempt(id: attempt.id)?.mayHaveCharged == true)
            // The provider refused it before processing: nothing charged so far.
            try await database.payments.releaseLease(attempt.id, providerRefused: true, now: testNow)
            #expect(try await database.payments.attempt(id: attempt.id)?.mayHaveCharged == false)
            // A second call loses its answer; a third is refused: the second may still have charged.
            #expect(
                try await database.payments.claim(
                    attempt.id, leaseExpiresAt: testNow.addingTimeInterval(9), now: testNow))
            try await database.payments.releaseLease(attempt.id, providerRefused: false, now: testNow)
            #expect(
                try await database.payments.claim(
                    attempt.id, leaseExpiresAt: testNow.addingTimeInterval(9), now: testNow))
            try await database.payments.releaseLease(attempt.id, providerRefused: true, now: testNow)
            #expect(try await database.payments.attempt(id: attempt.id)?.mayHaveCharged == true)
            let expired = try await database.payments.expireUncharged(
                attempt.id, response: StoredResponse(status: 409, body: "{}"), now: testNow)
            #expect(!expired)
        }
    }

    @Test("40 concurrent orders against a stock of 20 sell exactly 20", arguments: Backend.allCases)
    func stockNeverGoesBelowZeroUnderConcurrency(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            try await database.sql.write { connection in
                try connection.execute("UPDATE products SET stock = 20 WHERE id = 11")
            }
            var attempts: [NewPaymentAttempt] = []
            for _ in 0..<40 {
                let shopper = try await makeShopper(database, lines: [(11, 1), (18, 1)])
                attempts.append(try await makeAttempt(database, shopper: shopper))
            }
            let results = await withTaskGroup(of: Result<Order, any Error>.self) { group in
                for attempt in attempts {
                    group.addTask {
                        do { return .success(try await placeOrder(database, attempt)) } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: [Result<Order, any Error>]()) { $0.append($1) }
            }
            let sold = results.filter { if case .success = $0 { true } else { false } }.count
            let refused = results.compactMap { result -> CheckoutError? in
                if case .failure(let error) = result { return error as? CheckoutError }
                return nil
            }
            #expect(sold == 20)
            #expect(refused.count == 20)
            #expect(refused.allSatisfy { $0 == .outOfStock([ProductID(11)]) })
            #expect(try await stock(database, 11) == 0)
            #expect(try await stock(database, 18) == 180 - 20)  // the other line was not taken by refused orders
        }
    }

    @Test("a usage limit of 5 with 20 concurrent uses is used exactly 5 times", arguments: Backend.allCases)
    func usageLimitIsNeverExceededUnderConcurrency(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let limited = Promotion(
                code: try #require(PromotionCode("FIVE")), kind: .percentOff(try #require(Rate(percent: 5))),
                minimumSubtotal: eur(0), usageLimit: 5)
            try await database.sql.write { connection in try Seeder.insert(limited, on: connection) }
            var attempts: [NewPaymentAttempt] = []
            for _ in 0..<20 {
                let shopper = try await makeShopper(database, lines: [(3, 1)], promotion: "FIVE")
                attempts.append(try await makeAttempt(database, shopper: shopper))
            }
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for attempt in attempts {
                    group.addTask { (try? await placeOrder(database, attempt)) != nil }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 5)
            #expect(try await timesUsed(database, "FIVE") == 5)
            #expect(try await stock(database, 3) == 200 - 5)
        }
    }
}
