import CheckoutKit
import Foundation
import StoreDatabase
import StoreSQL
import StoreTestSupport
import Testing

@Suite("Housekeeping") struct HousekeepingTests {
    func count(_ database: StoreDatabase, _ table: String) async throws -> Int {
        try await database.sql.read { connection in
            try connection.queryFirst("SELECT COUNT(*) AS n FROM \(unsafeSQL: table)")?.decode("n", as: Int.self) ?? -1
        }
    }

    /// Abandoned anonymous shoppers go with their baskets, in batches; every shopper someone can
    /// still reach, who bought something or has a payment attempt, or who is a customer, stays.
    @Test(arguments: Backend.allCases)
    func abandonedShoppersGoInBatchesAndNobodyElse(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shoppersBefore = try await count(database, "shoppers")
            // 250 shoppers whose sessions expired, each with a basket line.
            for index in 0..<250 {
                let shopper = try await database.sessions.createAnonymousSession(
                    tokenHash: Array("abandoned-\(index)".utf8), now: testNow, expiresAt: testNow.addingTimeInterval(60)
                )
                _ = try await database.baskets.setQuantity(
                    try quantity(1), of: ProductID(1), for: shopper, now: testNow)
            }
            // Shoppers who must stay.
            let reachable = try await database.sessions.createAnonymousSession(
                tokenHash: Array("reachable".utf8), now: testNow, expiresAt: testNow.addingTimeInterval(30 * 86_400))
            _ = try await database.baskets.setQuantity(try quantity(2), of: ProductID(1), for: reachable, now: testNow)
            let buyer = try await makeShopper(database, lines: [(1, 1)])
            let order = try await placeOrder(database, try await makeAttempt(database, shopper: buyer))
            let trying = try await makeShopper(database, lines: [(2, 1)])
            let attempt = try await makeAttempt(database, shopper: trying)
            guard case .reserved = try await database.payments.reserve(attempt, now: testNow) else {
                Issue.record("expected a reservation")
                return
            }
            let customer = try #require(try await database.customers.customer(email: "pro@onlinestore.test"))
            let customerShopper = try await database.sessions.createCustomerSession(
                tokenHash: Array("pro".utf8), customer: customer.id, previous: nil, now: testNow,
                expiresAt: testNow.addingTimeInterval(60))
            let young = try await database.sessions.createAnonymousSession(
                tokenHash: Array("young".utf8), now: testNow.addingTimeInterval(7_200),
                expiresAt: testNow.addingTimeInterval(7_260))

            let later = testNow.addingTimeInterval(3 * 86_400)
            let report = try await database.housekeeping.run(
                now: later, failedAttemptsBefore: testNow, shoppersBefore: testNow.addingTimeInterval(3_600),
                batchSize: 40)
            // Expired: the 250, the buyer's, the trying shopper's, the customer's and the young one's.
            #expect(report.sessions == 254)
            #expect(report.shoppers == 250)
            #expect(try await count(database, "shoppers") == shoppersBefore + 5)
            #expect(try await count(database, "baskets") <= 5)

            #expect(try await database.baskets.basket(for: reachable).basketLines.count == 1)
            #expect(try await database.orders.order(order.id, for: buyer) != nil)
            #expect(try await database.payments.attempt(shopper: trying, key: attempt.key.rawValue) != nil)
            for kept in [reachable, buyer, trying, customerShopper, young] {
                let exists = try await database.sql.read { connection in
                    try connection.queryFirst("SELECT id FROM shoppers WHERE id = \(kept.rawValue)") != nil
                }
                #expect(exists, "\(kept)")
            }
            // A second pass finds nothing more.
            #expect(
                try await database.housekeeping.run(
                    now: later, failedAttemptsBefore: testNow, shoppersBefore: testNow.addingTimeInterval(3_600))
                    == HousekeepingRepository.Report())
        }
    }

    /// Failed attempts, the only ones looked up by age (to delete those past their keeping), are
    /// the only ones in the index by age: a checkout's attempt, pending and then paid, enters no
    /// entry there to write.
    @Test(arguments: Backend.allCases)
    func failedAttemptsAloneAreIndexedByAge(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let definitions = try await database.sql.read { connection in
                let query: SQLQuery =
                    connection.dialect == .postgres
                    ? "SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'payment_attempts'"
                    : "SELECT name, sql AS definition FROM sqlite_master WHERE type = 'index' AND tbl_name = 'payment_attempts'"
                return try connection.query(query).map {
                    (try $0.decode("name", as: String.self), try $0.decode("definition", as: String?.self) ?? "")
                }
            }
            #expect(!definitions.contains { $0.0 == "payment_attempts_by_age" })
            let byAge = try #require(definitions.first { $0.0 == "payment_attempts_failed_by_age" }?.1)
            #expect(byAge.contains("created_at") && byAge.contains("'failed'"), "\(byAge)")
            guard backend == .sqlite else { return }
            // SQLite's plan for housekeeping's search goes through it.
            let plan = try await database.sql.read { connection in
                try connection.query(
                    """
                    EXPLAIN QUERY PLAN SELECT id FROM payment_attempts
                    WHERE state = 'failed' AND created_at < 1000 LIMIT 500
                    """
                ).map { try $0.decode("detail", as: String.self) }
            }
            #expect(plan.contains { $0.contains("payment_attempts_failed_by_age") }, "\(plan)")
        }
    }
}
