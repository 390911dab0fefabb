import CheckoutKit
import Foundation
import StoreDatabase
import StoreTestSupport
import Testing

@Suite("Catalog, sessions and baskets") struct CatalogAndBasketTests {
    @Test(arguments: Backend.allCases)
    func catalogLookups(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let bottle = try #require(try await database.catalog.product(ProductID(1)))
            #expect(bottle.price == eur(10_20))
            #expect(try await database.catalog.product(ProductID(9_999)) == nil)
            let apparel = try #require(try await database.catalog.products(inCategory: "apparel"))
            #expect(!apparel.isEmpty && apparel.allSatisfy { $0.category == "apparel" })
            #expect(try await database.catalog.products(inCategory: "weapons") == nil)
            #expect(try await database.catalog.products(inCategory: "' OR 1=1 --") == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func sessionsFindTheirShopperUntilTheyExpire(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let hash = [UInt8](repeating: 7, count: 32)
            let shopper = try await database.sessions.createAnonymousSession(
                tokenHash: hash, now: testNow, expiresAt: testNow.addingTimeInterval(3_600))
            let session = try #require(try await database.sessions.session(tokenHash: hash, now: testNow))
            #expect(session.shopperID == shopper)
            #expect(session.customerID == nil)
            #expect(try await database.sessions.session(tokenHash: hash, now: testNow.addingTimeInterval(3_600)) == nil)
            #expect(
                try await database.sessions.session(tokenHash: [UInt8](repeating: 8, count: 32), now: testNow) == nil)
            let later = testNow.addingTimeInterval(7_200)
            let report = try await database.housekeeping.run(
                now: later, failedAttemptsBefore: later, shoppersBefore: testNow)
            #expect(report.sessions == 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func basketLinesAndPromotion(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await database.sessions.createAnonymousSession(
                tokenHash: [1], now: testNow, expiresAt: testNow.addingTimeInterval(60))
            #expect(try await database.baskets.basket(for: shopper).lines.isEmpty)
            #expect(try await database.baskets.setQuantity(quantity(1), of: ProductID(1), for: shopper, now: testNow))
            #expect(try await database.baskets.setQuantity(quantity(1), of: ProductID(2), for: shopper, now: testNow))
            #expect(try await database.baskets.setQuantity(quantity(2), of: ProductID(3), for: shopper, now: testNow))
            #expect(
                try await !database.baskets.setQuantity(quantity(1), of: ProductID(999), for: shopper, now: testNow))
            try await database.baskets.setPromotion(PromotionCode("RUN10"), for: shopper, now: testNow)

            let basket = try await database.baskets.basket(for: shopper)
            #expect(basket.lines.map(\.product.id) == [ProductID(1), ProductID(2), ProductID(3)])
            #expect(basket.promotionCode == PromotionCode("RUN10"))
            // docs/BEHAVIOUR.md §4's worked case, priced from what was stored.
            let run10 = try await database.promotions.promotion(#require(basket.promotionCode))
            let price = try Pricing.price(basket.basketLines, promotion: run10, tier: .free, shipping: .standard)
            #expect(price.subtotal == eur(50_00))
            #expect(price.total == eur(45_00))

            // Setting a quantity replaces it; removing a line is its own action.
            _ = try await database.baskets.setQuantity(quantity(5), of: ProductID(3), for: shopper, now: testNow)
            try await database.baskets.removeLine(ProductID(1), for: shopper, now: testNow)
            try await database.baskets.removeLine(ProductID(1), for: shopper, now: testNow)
            let after = try await database.baskets.basket(for: shopper)
            #expect(after.lines.map(\.product.id) == [ProductID(2), ProductID(3)])
            #expect(after.lines.last?.quantity == (try quantity(5)))
            try await database.baskets.setPromotion(nil, for: shopper, now: testNow)
            #expect(try await database.baskets.basket(for: shopper).promotionCode == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func aShopperNeverSeesAnothersBasket(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let alice = try await database.sessions.createAnonymousSession(
                tokenHash: [1], now: testNow, expiresAt: testNow.addingTimeInterval(60))
            let bob = try await database.sessions.createAnonymousSession(
                tokenHash: [2], now: testNow, expiresAt: testNow.addingTimeInterval(60))
            _ = try await database.baskets.setQuantity(quantity(3), of: ProductID(2), for: alice, now: testNow)
            #expect(try await database.baskets.basket(for: bob).lines.isEmpty)
            try await database.baskets.removeLine(ProductID(2), for: bob, now: testNow)
            #expect(try await database.baskets.basket(for: alice).lines.count == 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func loggingInKeepsTheAnonymousBasket(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let customer = try #require(try await database.customers.customer(email: "free@onlinestore.test"))
            // The customer already has a basket from an earlier visit.
            let earlier = try await database.sessions.createCustomerSession(
                tokenHash: [9], customer: customer.id, previous: nil, now: testNow,
                expiresAt: testNow.addingTimeInterval(60))
            _ = try await database.baskets.setQuantity(quantity(8), of: ProductID(3), for: earlier, now: testNow)

            let anonymous = try await database.sessions.createAnonymousSession(
                tokenHash: [1], now: testNow, expiresAt: testNow.addingTimeInterval(60))
            _ = try await database.baskets.setQuantity(quantity(4), of: ProductID(3), for: anonymous, now: testNow)
            _ = try await database.baskets.setQuantity(quantity(1), of: ProductID(2), for: anonymous, now: testNow)
            try await database.baskets.setPromotion(PromotionCode("RUN10"), for: anonymous, now: testNow)

            let shopper = try await database.sessions.createCustomerSession(
                tokenHash: [2], customer: customer.id, previous: anonymous, now: testNow,
                expiresAt: testNow.addingTimeInterval(60))
            #expect(shopper == earlier)
            let merged = try await database.baskets.basket(for: shopper)
            #expect(merged.lines.map(\.product.id) == [ProductID(3), ProductID(2)])
            #expect(merged.lines.first?.quantity == Quantity.maximum)  // 8 + 4, capped at 10
            #expect(merged.promotionCode == PromotionCode("RUN10"))
            #expect(try await database.baskets.basket(for: anonymous).lines.isEmpty)
            let session = try #require(try await database.sessions.session(tokenHash: [2], now: testNow))
            #expect(session.customerID == customer.id)
        }
    }
}
