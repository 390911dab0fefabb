import CheckoutKit
import Foundation
import StoreAPI
import StoreTestSupport
import Testing

@testable import StoreClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every endpoint of docs/BEHAVIOUR.md §9.4 through the live client, against a real store over
/// URLSession and an SQLite file.
@Suite("The live client, every endpoint") struct LiveEndpointTests {
    @Test("the catalog needs no session: products, one product, categories, a category's products")
    func catalog() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            let products = try await client.products()
            #expect(products.map(\.id) == Array(1...20))
            let cap = try await client.product(id: 2)
            #expect(cap.title == products[1].title)
            #expect(cap.price == eur(21_90))
            #expect(cap.image.hasPrefix("/images/"))
            let categories = try await client.categories()
            #expect(categories.count == 4)
            #expect(Set(categories) == Set(products.map(\.category)))
            for category in categories {
                let some = try await client.products(inCategory: category)
                #expect(!some.isEmpty)
                #expect(some.allSatisfy { $0.category == category })
            }
            #expect(await client.token == nil)
        }
    }

    @Test("the basket: a session is started when first needed; set, remove, promotion on and off")
    func basket() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            let empty = try await client.basket()
            #expect(empty.items.isEmpty)
            #expect(empty.total == eur(0))
            #expect(await client.token != nil)

            let one = try await client.setQuantity(SetQuantityRequest(quantity: 1), productID: 2)
            #expect(one.total == eur(26_85))
            #expect(one.amountToFreeShipping == eur(28_10))

            _ = try await client.setQuantity(SetQuantityRequest(quantity: 1), productID: 1)
            let worked = try await client.setQuantity(SetQuantityRequest(quantity: 2), productID: 3)
            #expect(worked.subtotal == eur(50_00))
            #expect(worked.shipping == eur(0))

            let promoted = try await client.applyPromotion(ApplyPromotionRequest(code: " run10 "))
            #expect(promoted.promotion?.code == "RUN10")
            #expect(promoted.discount == eur(5_00))
            #expect(promoted.total == eur(45_00))
            let card = try #require(promoted.paymentOptions.first { $0.type == "card" })
            #expect(card.fee == eur(36))
            #expect(card.amountDue == eur(45_36))

            let plain = try await client.removePromotion()
            #expect(plain.promotion == nil)
            #expect(plain.total == eur(50_00))

            let fewer = try await client.removeLine(productID: 3)
            #expect(fewer.items.map(\.productID) == [2, 1])
            #expect(try await client.basket() == fewer)
        }
    }

    @Test("concurrent first requests share one new session")
    func oneSessionForABurst() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in Int64(1)...8 {
                    group.addTask {
                        _ = try await client.setQuantity(SetQuantityRequest(quantity: 1), productID: id)
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await client.basket().items.count == 8)
        }
    }

    @Test("checkout: 201 and the order; the same key and request again replays it; orders list and open it")
    func checkoutAndOrders() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            try await client.fillWorkedCaseBasket()
            let request = try CheckoutRequest.card("tok_visa", total: eur(45_00))
            let key = try makeKey("9b2f6a7e-0d4c-4b7e-8f3a-1c2d3e4f5a6b")
            let order = try await client.checkout(request, idempotencyKey: key)
            #expect(order.status == "paid")
            #expect(order.paymentStatus == "paid" && order.refunds.isEmpty)
            #expect(order.total == eur(45_36))
            #expect(order.fee == eur(36))
            #expect(order.discount == eur(5_00))
            #expect(order.promotion == "RUN10")
            #expect(order.paymentMethod == PaymentMethodBody(type: "card", brand: "visa"))
            #expect(order.lines.map(\.quantity) == [1, 1, 2])

            let replayed = try await client.checkout(request, idempotencyKey: key)
            #expect(replayed == order)
            #expect(try await store.orderCount() == 1)
            #expect(try await store.charges() == 1)

            #expect(try await client.basket().items.isEmpty)
            #expect(try await client.orders() == [order])
            #expect(try await client.order(id: order.id) == order)
        }
    }

    @Test("sessions: start one, log in keeping the basket, the profile, log out to a new anonymous shopper")
    func sessions() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            let anonymous = try await client.startSession()
            #expect(await client.token == anonymous.token)
            _ = try await client.setQuantity(SetQuantityRequest(quantity: 2), productID: 2)

            let login = try await client.login(Demo.pro)
            #expect(login.customer.email == "pro@onlinestore.test")
            #expect(await client.token == login.token)
            #expect(login.token != anonymous.token)
            let basket = try await client.basket()
            #expect(basket.items.map(\.quantity) == [2])
            #expect(basket.tier == .pro)
            #expect(basket.shipping == eur(0))

            let profile = try await client.profile()
            #expect(profile.email == "pro@onlinestore.test")
            #expect(profile.tier == .pro)
            #expect(profile.subscription.willAutoRenew)
            #expect(profile.subscription.expiresAt != nil)

            await client.logout()
            #expect(await client.token == nil)
            #expect(try await client.basket().items.isEmpty)
            let next = try #require(await client.token)
            #expect(next != login.token)

            // The customer's token no longer works.
            let old = LiveStoreClient(baseURL: store.base, token: login.token)
            #expect(await failure { () async throws(StoreClientError) in try await old.profile() } != nil)
        }
    }

    @Test("the free customer's profile and tier", arguments: [Backend.sqlite, Backend.postgres])
    func freeProfile(backend: Backend) async throws {
        try await LiveStore.with(backend) { store in
            let client = store.client()
            _ = try await client.login(Demo.free)
            let profile = try await client.profile()
            #expect(profile.firstName == "Sam")
            #expect(profile.tier == .free)
            #expect(profile.subscription.expiresAt == nil)
        }
    }

    @Test("logging out with no session does nothing")
    func logoutWithoutSession() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            await client.logout()
            #expect(await client.token == nil)
        }
    }
}

/// Clients come and go as screens do; the process must carry on.
@Suite("The live transport") struct LiveTransportTests {
    @Test("every transport sends through the process's one session, never torn down")
    func oneSessionPerProcess() async throws {
        try await LiveStore.with { store in
            // Hundreds of clients, each made, used with a request in flight next to others, and
            // dropped: a session per client, torn down with it, crashed libdispatch now and then.
            for _ in 0..<8 {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<40 {
                        group.addTask {
                            let client = store.client(timeout: .seconds(10))
                            return try await client.categories().count
                        }
                    }
                    for try await count in group { #expect(count == 4) }
                }
            }
            let first = URLSessionTransport(baseURL: store.base)
            let second = URLSessionTransport(baseURL: store.base)
            #expect(first.session === second.session)
        }
    }
}
