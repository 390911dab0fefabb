import CheckoutKit
import Foundation
import StoreAPI
import StoreClient
import StoreFeatures
import StoreServerTestSupport
import StoreTestSupport
import Testing

/// The app's screen models (docs/BEHAVIOUR.md §10) driven against a real store through the live
/// client: what a shopper does in the app, end to end.
@Suite("The app against a real store") struct AppFlowTests {
    static let enUS = Locale(identifier: "en_US")

    /// Counts the idempotency keys the app makes.
    @MainActor
    final class Keys {
        private(set) var made: [IdempotencyKey] = []

        func make() -> IdempotencyKey {
            let key = IdempotencyKey.uuid()
            made.append(key)
            return key
        }
    }

    /// The root model over a live client of `store`.
    @MainActor
    static func app(_ store: LiveStore, keys: Keys = Keys()) -> RootModel {
        RootModel(
            dependencies: AppDependencies(
                clients: StoreClients(store.client()), subscriptionCache: InMemorySubscriptionCache(),
                makeKey: { keys.make() }, locale: Self.enUS,
                timeZone: TimeZone(identifier: "UTC") ?? .current))
    }

    /// Browses, and fills the worked-case basket with the product counters: 10.20 + 21.90 + 2 × 8.95.
    @MainActor
    static func fillBasket(_ root: RootModel) async throws -> [ProductBody] {
        let list = root.productList
        await list.task()
        let products = try #require(list.state.value)
        let (bottle, cap, socks) = (products[0], products[1], products[2])
        await list.addButtonTapped(product: bottle)
        await list.addButtonTapped(product: cap)
        await list.addButtonTapped(product: socks)
        await list.plusButtonTapped(product: socks)
        #expect(list.alert == nil)
        #expect([bottle, cap, socks].map(list.count(of:)) == [1, 1, 2])
        return products
    }

    @Test("browse → add → RUN10 → pay with tok_visa → the receipt → the order is listed")
    func buy() async throws {
        try await LiveStore.with { store in try await Self.buyFlow(store) }
    }

    @MainActor
    static func buyFlow(_ store: LiveStore) async throws {
        let keys = Keys()
        let root = Self.app(store, keys: keys)
        let products = try await Self.fillBasket(root)

        root.basketButtonTapped()
        let basket = root.basket
        await basket.task()
        #expect(basket.basket?.total == eur(50_00))
        #expect(basket.freeShippingHint == nil)
        basket.promoCode = " run10 "
        await basket.applyPromoButtonTapped()
        #expect(basket.promoError == nil)
        #expect(basket.basket?.discount == eur(5_00))
        #expect(basket.basket?.total == eur(45_00))
        #expect(basket.selectedCardToken?.rawValue == "tok_visa")

        basket.payButtonTapped()
        #expect(basket.confirmationQuestion == "Pay €45.36?")
        await basket.confirmPaymentTapped()
        guard case .receipt(let order) = basket.destination else {
            Issue.record("no receipt: \(String(describing: basket.paymentFailureMessage))")
            return
        }
        #expect(order.total == eur(45_36))
        #expect(order.promotion == "RUN10")
        #expect(basket.isEmpty)
        #expect(products.prefix(3).allSatisfy { root.productList.count(of: $0) == 0 })
        #expect(keys.made.count == 1)

        root.selectedTab = .orders
        await root.orders.task()
        #expect(root.orders.state.value == [order])
        await root.orders.orderTapped(id: order.id)
        #expect(root.orders.destination == .receipt(order))
        #expect(try await store.orderCount() == 1)
        #expect(try await store.charges() == 1)
    }

    @Test(
        "refunded in the back office: the client and the Orders screen show the status and each refund",
        arguments: [Backend.sqlite, Backend.postgres])
    func refundedOrder(backend: Backend) async throws {
        try await LiveStore.with(backend) { store in try await Self.refundedOrderFlow(store) }
    }

    @MainActor
    static func refundedOrderFlow(_ store: LiveStore) async throws {
        let root = Self.app(store)
        _ = try await Self.fillBasket(root)
        root.basketButtonTapped()
        await root.basket.task()
        root.basket.payButtonTapped()
        await root.basket.confirmPaymentTapped()
        guard case .receipt(let paid) = root.basket.destination else {
            Issue.record("no receipt: \(String(describing: root.basket.paymentFailureMessage))")
            return
        }
        #expect(paid.paymentStatus == "paid" && paid.refunds.isEmpty)

        // Staff refund one pair of socks (line 2): half of 17.90, with no discount to share.
        let owner = OwnerRefunds(base: store.base)
        let refund = try await owner.refund(
            paid.id,
            RefundRequestBody(lines: [RefundLineRequest(position: 2, quantity: 1)], reason: "damaged", note: "Torn"))
        #expect(refund.amount == eur(8_95))

        root.selectedTab = .orders
        let orders = root.orders
        await orders.task()
        let listed = try #require(orders.state.value?.first)
        #expect(listed.id == paid.id)
        #expect(orders.paymentStatusLabel(of: listed) == "Partially refunded")
        await orders.orderTapped(id: paid.id)
        let receipt = try #require(orders.receipt)
        #expect(receipt.refunds.map(\.id) == [refund.id])
        #expect(receipt.refunds.first?.note == nil && receipt.refunds.first?.requestedBy == nil)
        let shown = try #require(orders.receiptRefunds)
        #expect(shown.statusLabel == "Partially refunded")
        #expect(shown.refunded == eur(8_95))
        #expect(shown.entries.map(\.parts.first?.label) == ["Running socks × 1"])
        #expect(shown.entries.first?.headline.hasPrefix("Refunded €8.95 on ") == true)

        // Another refund, of the bottle: the list shows both after a refresh.
        orders.destination = nil
        _ = try await owner.refund(
            paid.id, RefundRequestBody(lines: [RefundLineRequest(position: 0, quantity: 1)], reason: "returned"))
        await orders.refreshPulled()
        #expect(orders.state.value?.first?.refunds.count == 2)
        #expect(orders.state.value?.first.map(orders.paymentStatusLabel(of:)) == "Partially refunded")
        #expect(orders.state.value?.first.map { orders.refunds(of: $0).refunded } == eur(19_15))
        // Nobody else sees any of it.
        #expect(try await store.client().orders().isEmpty)
    }

    @Test("tok_timeout: the answer is lost, the retry sends the same key, exactly one order")
    func lostAnswerRetried() async throws {
        try await LiveStore.with { store in try await Self.lostAnswerRetriedFlow(store) }
    }

    @MainActor
    static func lostAnswerRetriedFlow(_ store: LiveStore) async throws {
        let keys = Keys()
        let root = Self.app(store, keys: keys)
        _ = try await Self.fillBasket(root)
        let basket = root.basket
        await basket.task()
        basket.cardTokenSelected(try CardToken("tok_timeout"))

        basket.payButtonTapped()
        #expect(basket.confirmationQuestion == "Pay €50.40?")
        await basket.confirmPaymentTapped()
        #expect(basket.paymentFailure == .unavailable)
        #expect(basket.paymentFailureMessage == CheckoutError.unavailable.message)
        #expect(basket.destination == nil)
        #expect(try await store.charges() == 1)  // the provider did charge
        #expect(try await store.orderCount() == 0)

        // Closing and opening the basket keeps the attempt; Pay again retries it.
        root.destination = nil
        root.basketButtonTapped()
        basket.payButtonTapped()
        await basket.confirmPaymentTapped()
        guard case .receipt(let order) = basket.destination else {
            Issue.record("no receipt: \(String(describing: basket.paymentFailureMessage))")
            return
        }
        #expect(keys.made.count == 1)
        #expect(order.total == eur(50_40))
        #expect(try await store.orderCount() == 1)
        #expect(try await store.charges() == 1)
        await root.orders.task()
        #expect(root.orders.state.value?.map(\.id) == [order.id])
    }

    @Test("a decline keeps the basket; the next Pay is a new attempt with a new key")
    func declinedThenPaid() async throws {
        try await LiveStore.with { store in try await Self.declinedThenPaidFlow(store) }
    }

    @MainActor
    static func declinedThenPaidFlow(_ store: LiveStore) async throws {
        let keys = Keys()
        let root = Self.app(store, keys: keys)
        _ = try await Self.fillBasket(root)
        let basket = root.basket
        await basket.task()
        basket.cardTokenSelected(try CardToken("tok_insufficientFunds"))
        basket.payButtonTapped()
        await basket.confirmPaymentTapped()
        #expect(
            basket.paymentFailureMessage == "Your bank declined the payment. The card has insufficient funds.")
        #expect(basket.basket?.items.count == 3)

        basket.cardTokenSelected(try CardToken("tok_mastercard"))
        #expect(basket.paymentFailure == nil)
        basket.payButtonTapped()
        await basket.confirmPaymentTapped()
        guard case .receipt(let order) = basket.destination else {
            Issue.record("no receipt: \(String(describing: basket.paymentFailureMessage))")
            return
        }
        #expect(order.paymentMethod.brand == "mastercard")
        #expect(Set(keys.made).count == 2)
        #expect(try await store.charges() == 1)
    }

    @Test("log in keeping the basket; the profile is Pro and confirmed now; log out starts afresh")
    func loginProfileLogout() async throws {
        try await LiveStore.with { store in try await Self.loginProfileLogoutFlow(store) }
    }

    @MainActor
    static func loginProfileLogoutFlow(_ store: LiveStore) async throws {
        let root = Self.app(store)
        _ = try await Self.fillBasket(root)

        root.logInButtonTapped()
        guard case .login(let login) = root.destination else {
            Issue.record("no login form")
            return
        }
        login.email = Demo.pro.email
        login.password = "wrong password"
        await login.logInButtonTapped()
        #expect(login.errorMessage == "The email or password is incorrect.")
        login.password = Demo.pro.password
        await login.logInButtonTapped()
        #expect(root.customer?.firstName == "Robin")

        await root.productList.task()
        let products = try #require(root.productList.state.value)
        #expect(root.productList.count(of: products[2]) == 2)
        await root.basket.task()
        #expect(root.basket.basket?.tier == .pro)

        await root.profile.task()
        #expect(root.profile.email == Demo.pro.email)
        #expect(root.profile.tier == .pro)
        #expect(root.profile.tierLabel == "Pro")
        #expect(root.profile.confirmationLabel == "Confirmed now")

        await root.logOutButtonTapped()
        #expect(root.customer == nil)
        #expect(root.profile.tierLabel == "Not known yet")
        await root.basket.task()
        #expect(root.basket.isEmpty)
    }
}
