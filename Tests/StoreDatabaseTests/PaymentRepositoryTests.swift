import CheckoutKit
import Concurrency
import Foundation
import StoreDatabase
import StoreSQL
import StoreTestSupport
import TestWaiting
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
        quote: quote, basketVersion: basket.version, leaseExpiresAt: testNow.addingTimeInterval(30))
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
            #expect(stored == ShopperOrder(paid: order))
            #expect(stored.paymentStatus == .paid)
            #expect(try await database.orders.orders(for: shopper) == [ShopperOrder(paid: order)])
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
                record, reason: .cardDeclined, response: StoredResponse(status: 402, body: "x"), event: nil,
                now: testNow)
            #expect(try await stock(database, 2) == 80 - 1)
        }
    }

    @Test(
        "a sale and its release each write a ledger line per product, with the stock after it",
        arguments: Backend.allCases)
    func saleAndReleaseLedgerLines(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await makeShopper(database, lines: [(11, 2), (3, 1)])
            let before = (three: try await stock(database, 3), eleven: try await stock(database, 11))
            let attempt = try await makeAttempt(database, shopper: shopper)
            guard case .reserved(let record) = try await database.payments.reserve(attempt, now: testNow) else {
                Issue.record("expected a reservation")
                return
            }
            func newest(_ product: Int64) async throws -> StockMovement {
                try #require(try await database.products.movements(of: ProductID(product)).first)
            }
            let sold = (three: try await newest(3), eleven: try await newest(11))
            #expect(sold.three.reason == .sale && sold.three.change == -1 && sold.three.stockAfter == before.three - 1)
            #expect(
                sold.eleven.reason == .sale && sold.eleven.change == -2 && sold.eleven.stockAfter == before.eleven - 2)
            #expect(try await stock(database, 3) == before.three - 1)

            _ = try await database.payments.recordFailed(
                record, reason: .cardDeclined, response: StoredResponse(status: 402, body: "declined"), event: nil,
                now: testNow)
            let released = (three: try await newest(3), eleven: try await newest(11))
            #expect(released.three.reason == .saleReleased && released.three.change == 1)
            #expect(released.three.stockAfter == before.three)
            #expect(released.eleven.reason == .saleReleased && released.eleven.change == 2)
            #expect(released.eleven.stockAfter == before.eleven)
            #expect(try await stock(database, 11) == before.eleven)
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
                record, reason: .insufficientFunds, response: StoredResponse(status: 402, body: "declined"),
                event: .paymentFinished(method: .card, succeeded: false), now: testNow)
            #expect(failed.state == .failed)
            #expect(failed.declineReason == .insufficientFunds)
            #expect(try await database.payments.attempt(id: record.id)?.declineReason == .insufficientFunds)
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
            #expect(try await database.payments.unresolvedAttempts(now: testNow).isEmpty)
            #expect(
                try await !database.payments.claim(
                    attempt.id, leaseExpiresAt: testNow.addingTimeInterval(60), now: testNow, call: .random()))
            let later = testNow.addingTimeInterval(31)
            #expect(try await database.payments.unresolvedAttempts(now: later).map(\.id) == [attempt.id])
            #expect(
                try await database.payments.claim(
                    attempt.id, leaseExpiresAt: later.addingTimeInterval(30), now: later, call: .random()))
            #expect(
                try await !database.payments.claim(
                    attempt.id, leaseExpiresAt: later.addingTimeInterval(30), now: later, call: .random()))
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
                record, reason: .cardDeclined, response: StoredResponse(status: 402, body: "{}"), event: nil,
                now: testNow)
            let paid = try await placeOrder(database, try await makeAttempt(database, shopper: shopper, key: "paid"))
            let housekeeping = database.housekeeping
            #expect(
                try await housekeeping.run(now: testNow, failedAttemptsBefore: testNow, shoppersBefore: testNow)
                    .failedAttempts == 0)
            #expect(
                try await housekeeping.run(
                    now: testNow, failedAttemptsBefore: testNow.addingTimeInterval(1), shoppersBefore: testNow
                ).failedAttempts == 1)
            #expect(try await database.payments.attempt(shopper: shopper, key: "declined") == nil)
            #expect(try await database.payments.attempt(shopper: shopper, key: "paid")?.orderID == paid.id)
        }
    }

    @Test(
        "a refusal of the only call withdraws the attempt and gives its reservation back at once",
        arguments: Backend.allCases)
    func aRefusalHoldsNothing(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await makeShopper(database, lines: [(11, 3)], promotion: "RUN10")
            let before = try await stock(database, 11)
            let attempt = try await makeAttempt(database, shopper: shopper, key: "down")
            _ = try await database.payments.reserve(attempt, now: testNow)
            #expect(try await stock(database, 11) == before - 3)
            #expect(try await timesUsed(database, "RUN10") == 1)
            // Another call's refusal is not this one's: nothing changes.
            #expect(
                try await database.payments.releaseCall(
                    attempt.id, call: .random(), providerRefused: true, now: testNow)
                    == .kept)
            #expect(try await stock(database, 11) == before - 3)
            #expect(
                try await database.payments.releaseCall(
                    attempt.id, call: attempt.call, providerRefused: true, now: testNow) == .withdrawn)
            #expect(try await stock(database, 11) == before)
            #expect(try await timesUsed(database, "RUN10") == 0)
            #expect(try await database.payments.attempt(shopper: shopper, key: "down") == nil)
            #expect(try await database.payments.openAttempt(of: shopper) == nil)
            // The same key may try again.
            guard
                case .reserved = try await database.payments.reserve(
                    try await makeAttempt(database, shopper: shopper, key: "down"), now: testNow)
            else {
                Issue.record("expected a new reservation")
                return
            }
        }
    }

    @Test(
        "a call's in-flight mark belongs to it: a later refused call never clears an earlier one",
        arguments: Backend.allCases)
    func callMarksBelongToTheirCall(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await makeShopper(database, lines: [(1, 1)])
            let attempt = try await makeAttempt(database, shopper: shopper)
            _ = try await database.payments.reserve(attempt, now: testNow)
            // The first call is in flight: it may charge.
            #expect(try await database.payments.attempt(id: attempt.id)?.callInFlight == attempt.call)
            #expect(try await database.payments.attempt(id: attempt.id)?.mayHaveCharged == true)
            // Its lease runs out while it is still in flight; a second request takes the attempt over
            // and the provider refuses *its* call: the first may still have charged.
            let later = testNow.addingTimeInterval(31)
            let second = ProviderCallID.random()
            #expect(
                try await database.payments.claim(
                    attempt.id, leaseExpiresAt: later.addingTimeInterval(15), now: later, call: second))
            #expect(
                try await database.payments.releaseCall(attempt.id, call: second, providerRefused: true, now: later)
                    == .kept)
            let record = try #require(try await database.payments.attempt(id: attempt.id))
            #expect(record.state == .pending)
            #expect(record.answerLost)
            #expect(record.callInFlight == nil)
            #expect(try await database.payments.unresolvedAttempts(now: later).map(\.id) == [attempt.id])
            // A lost answer is never forgotten either.
            let third = ProviderCallID.random()
            #expect(try await database.payments.claim(attempt.id, leaseExpiresAt: later, now: later, call: third))
            #expect(
                try await database.payments.releaseCall(attempt.id, call: third, providerRefused: true, now: later)
                    == .kept)
            #expect(try await database.payments.attempt(id: attempt.id)?.mayHaveCharged == true)
        }
    }

    /// On PostgreSQL two checkouts of one basket queue at the basket's row: a reservation waits
    /// while another transaction holds it, so its checks, begun after the wait, see what that one
    /// committed. (Without the lock the outcome would still be safe — the unique index on open
    /// attempts refuses a second one — so this looks at the wait itself.) A reservation that
    /// finished while the row was held fails this test; one that is merely slow cannot.
    @Test func aReservationWaitsForTheBasketsRow() async throws {
        try await withStoreDatabase(.postgres) { database in
            let shopper = try await makeShopper(database, lines: [(2, 1)])
            let attempt = try await makeAttempt(database, shopper: shopper)
            let holder = try await HeldTransaction(
                database, running: "SELECT version FROM baskets WHERE shopper_id = \(shopper.rawValue) FOR UPDATE")
            let finished = Locked(false)
            let reserving = Task {
                defer { finished.withLock { $0 = true } }
                return try await database.payments.reserve(attempt, now: testNow)
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(!finished.withLock { $0 }, "the reservation went ahead while the basket's row was held")
            try await holder.finish()
            guard case .reserved = try await reserving.value else {
                Issue.record("expected a reservation once the row was free")
                return
            }
            #expect(try await stock(database, 2) == 80 - 1)
        }
    }

    @Test(
        "one basket, one payment: another key while an attempt is open is blocked; a stale basket is refused",
        arguments: Backend.allCases)
    func oneOpenAttemptPerShopper(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await makeShopper(database, lines: [(2, 1)])
            let first = try await makeAttempt(database, shopper: shopper, key: "first")
            guard case .reserved(let record) = try await database.payments.reserve(first, now: testNow) else {
                Issue.record("expected a reservation")
                return
            }
            let second = try await makeAttempt(database, shopper: shopper, key: "second")
            #expect(try await database.payments.reserve(second, now: testNow) == .blocked(by: record))
            #expect(try await stock(database, 2) == 80 - 1)
            #expect(try await database.payments.attempt(shopper: shopper, key: "second") == nil)

            // Paid: the basket changed, so a quote priced before the payment cannot be reserved.
            _ = try await database.payments.recordPaid(
                record, order: record.order(id: .random(), cardBrand: nil, createdAt: testNow),
                response: StoredResponse(status: 201, body: "{}"), event: nil, now: testNow)
            #expect(try await database.payments.reserve(second, now: testNow) == .basketChanged)
            #expect(try await stock(database, 2) == 80 - 1)
            #expect(try await database.payments.attempt(shopper: shopper, key: "second") == nil)
        }
    }

    @Test("64 reservations of one basket with 64 keys at once: one is reserved", arguments: Backend.allCases)
    func concurrentKeysReserveOnce(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await makeShopper(database, lines: [(2, 1), (3, 2)])
            var attempts: [NewPaymentAttempt] = []
            for index in 0..<64 { attempts.append(try await makeAttempt(database, shopper: shopper, key: "k\(index)")) }
            let outcomes = try await withThrowingTaskGroup(of: ReservationOutcome.self) { group in
                for attempt in attempts { group.addTask { try await database.payments.reserve(attempt, now: testNow) } }
                return try await group.reduce(into: [ReservationOutcome]()) { $0.append($1) }
            }
            let reserved = outcomes.filter { if case .reserved = $0 { true } else { false } }
            #expect(reserved.count == 1)
            #expect(
                outcomes.allSatisfy {
                    if case .reserved = $0 { true } else if case .blocked = $0 { true } else { false }
                })
            #expect(try await stock(database, 3) == 200 - 2)
        }
    }

    @Test(
        "paying takes out exactly the paid lines: what was added or raised meanwhile stays",
        arguments: Backend.allCases)
    func payingTakesOutThePaidLines(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await makeShopper(database, lines: [(1, 1), (3, 2)], promotion: "RUN10")
            let attempt = try await makeAttempt(database, shopper: shopper)
            guard case .reserved(let record) = try await database.payments.reserve(attempt, now: testNow) else {
                Issue.record("expected a reservation")
                return
            }
            // While the payment is being made, the shopper raises the socks and adds the cap.
            _ = try await database.baskets.setQuantity(try quantity(3), of: ProductID(3), for: shopper, now: testNow)
            _ = try await database.baskets.setQuantity(try quantity(1), of: ProductID(2), for: shopper, now: testNow)
            _ = try await database.payments.recordPaid(
                record, order: record.order(id: .random(), cardBrand: nil, createdAt: testNow),
                response: StoredResponse(status: 201, body: "{}"), event: nil, now: testNow)
            let basket = try await database.baskets.basket(for: shopper)
            #expect(basket.lines.map { [$0.product.id.rawValue, Int64($0.quantity.value)] } == [[3, 1], [2, 1]])
            #expect(basket.promotionCode == nil)  // RUN10 was used by the order
        }
    }

    @Test("a login carries the anonymous shopper's attempts and orders to the customer", arguments: Backend.allCases)
    func loginCarriesAttemptsAndOrders(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let anonymous = try await makeShopper(database, lines: [(1, 1)])
            let paid = try await placeOrder(database, try await makeAttempt(database, shopper: anonymous, key: "paid"))
            _ = try await database.baskets.setQuantity(try quantity(1), of: ProductID(2), for: anonymous, now: testNow)
            let pending = try await makeAttempt(database, shopper: anonymous, key: "pending")
            _ = try await database.payments.reserve(pending, now: testNow)

            let customer = try #require(try await database.customers.customer(email: "free@onlinestore.test"))
            // The customer already has a basket of their own, whose version may match the attempt's.
            let own = try await database.sessions.createCustomerSession(
                tokenHash: Array("earlier".utf8), customer: customer.id, previous: nil, now: testNow,
                expiresAt: testNow.addingTimeInterval(3_600))
            _ = try await database.baskets.setQuantity(try quantity(1), of: ProductID(5), for: own, now: testNow)
            let shopper = try await database.sessions.createCustomerSession(
                tokenHash: Array("login".utf8), customer: customer.id, previous: anonymous, now: testNow,
                expiresAt: testNow.addingTimeInterval(3_600))
            #expect(shopper == own)
            #expect(try await database.payments.attempt(shopper: shopper, key: "pending")?.id == pending.id)
            #expect(try await database.payments.openAttempt(of: shopper)?.id == pending.id)
            #expect(try await database.payments.attempt(shopper: anonymous, key: "pending") == nil)
            #expect(try await database.orders.order(paid.id, for: shopper) != nil)
            #expect(try await database.orders.orders(for: anonymous).isEmpty)
            // Paid under the customer: only the carried attempt's line leaves the merged basket.
            let record = try #require(try await database.payments.attempt(id: pending.id))
            _ = try await database.payments.recordPaid(
                record, order: record.order(id: .random(), cardBrand: nil, createdAt: testNow),
                response: StoredResponse(status: 201, body: "{}"), event: nil, now: testNow)
            #expect(try await database.baskets.basket(for: shopper).lines.map(\.product.id) == [ProductID(5)])
            #expect(try await database.orders.orders(for: shopper).count == 2)
        }
    }

    @Test("a pass over unresolved attempts sees every one, oldest first, in pages", arguments: Backend.allCases)
    func unresolvedAttemptsArePaged(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            var expected: [AttemptID] = []
            for index in 0..<7 {
                let shopper = try await makeShopper(database, lines: [(1, 1)])
                let attempt = try await makeAttempt(database, shopper: shopper)
                _ = try await database.payments.reserve(attempt, now: testNow.addingTimeInterval(Double(index % 3)))
                expected.append(attempt.id)
            }
            let later = testNow.addingTimeInterval(3_600)
            var seen: [PaymentAttemptRecord] = []
            var cursor: UnresolvedCursor?
            while let page = Optional(
                try await database.payments.unresolvedAttempts(now: later, after: cursor, limit: 2)),
                let last = page.last
            {
                seen += page
                cursor = UnresolvedCursor(after: last)
            }
            #expect(Set(seen.map(\.id)) == Set(expected))
            #expect(seen.count == expected.count)
            #expect(seen.map(\.createdAt) == seen.map(\.createdAt).sorted())
        }
    }

    @Test("several lines set at once: all or none", arguments: Backend.allCases)
    func settingLinesIsAllOrNone(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            try await database.sql.write { try $0.execute("UPDATE products SET stock = 1 WHERE id = 11") }
            let shopper = try await makeShopper(database, lines: [])
            await #expect(throws: BasketLineError.insufficientStock(line: 1, available: 1)) {
                try await database.baskets.setQuantities(
                    [(ProductID(1), try quantity(2)), (ProductID(11), try quantity(2))], for: shopper, now: testNow)
            }
            await #expect(throws: BasketLineError.unknownProduct(line: 0)) {
                try await database.baskets.setQuantities(
                    [(ProductID(999), try quantity(2))], for: shopper, now: testNow)
            }
            #expect(try await database.baskets.basket(for: shopper).lines.isEmpty)
            try await database.baskets.setQuantities(
                [(ProductID(1), try quantity(2)), (ProductID(11), try quantity(1))], for: shopper, now: testNow)
            #expect(try await database.baskets.basket(for: shopper).lines.count == 2)
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
