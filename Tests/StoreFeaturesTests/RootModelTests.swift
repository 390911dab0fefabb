import CheckoutKit
import Foundation
import StoreAPI
import StoreClient
import StoreFeatures
import Testing

/// docs/BEHAVIOUR.md §10, the root: tabs, the basket opened from Products, login and logout.
@MainActor
@Suite struct RootModelTests {
    let catalog = FakeCatalogClient()
    let basket = FakeBasketClient()
    let checkout = FakeCheckoutClient()
    let orders = FakeOrdersClient()
    let session = FakeSessionClient()
    let profile = FakeProfileClient()
    let cache = InMemorySubscriptionCache()
    let keys = KeyMaker()

    func makeRoot() -> RootModel {
        RootModel(
            dependencies: AppDependencies(
                clients: StoreClients(
                    catalog: catalog, basket: basket, checkout: checkout, orders: orders, session: session,
                    profile: profile),
                subscriptionCache: cache, now: { referenceDate }, makeKey: { [keys] in keys.make() },
                sleep: { _ in }, locale: enUS))
    }

    static let customer = CustomerBody(email: "pro@onlinestore.test", firstName: "Ada", lastName: "Lovelace")

    @Test("three tabs, Products first; the basket opens from Products")
    func tabsAndBasket() {
        let root = makeRoot()
        #expect(RootModel.Tab.allCases == [.products, .orders, .profile])
        #expect(root.selectedTab == .products)
        #expect(root.destination == nil)
        root.basketButtonTapped()
        guard case .basket = root.destination else { return #expect(Bool(false), "the basket is not open") }
    }

    @Test("a payment resets the product counters and puts the order on the Orders tab")
    func paymentResetsCounters() async {
        let root = makeRoot()
        let server = ServerBasket([(Catalog.cap, 2)])
        catalog.onProducts = { .success(Catalog.all) }
        basket.onBasket = { .success(server.body) }
        orders.onOrders = { .success([order("ord_1")]) }
        await root.productList.task()
        await root.orders.task()
        #expect(root.productList.count(of: Catalog.cap) == 2)

        root.basketButtonTapped()
        guard case .basket(let basketModel) = root.destination else { return #expect(Bool(false), "no basket") }
        await basketModel.task()
        checkout.answer([.success(order("ord_2"))])
        basketModel.payButtonTapped()
        await basketModel.confirmPaymentTapped()

        #expect(root.productList.count(of: Catalog.cap) == 0)
        #expect(root.orders.state == .loaded([order("ord_2"), order("ord_1")]))
    }

    @Test("a basket changed on the basket screen moves the product counters")
    func basketChangesMoveCounters() async throws {
        let root = makeRoot()
        var server = ServerBasket([(Catalog.cap, 2)])
        catalog.onProducts = { .success(Catalog.all) }
        basket.onBasket = { .success(server.body) }
        basket.onSetQuantity = { quantity, id in
            server.set(quantity, of: id)
            return .success(server.body)
        }
        await root.productList.task()
        root.basketButtonTapped()
        guard case .basket(let basketModel) = root.destination else { return #expect(Bool(false), "no basket") }
        await basketModel.task()
        await basketModel.incrementButtonTapped(line: try #require(basketModel.basket?.items.first))
        #expect(root.productList.count(of: Catalog.cap) == 3)
    }

    @Test("the basket screen outlives its sheet: after a timeout, reopening it and paying reuses the key")
    func basketOutlivesItsSheet() async {
        let root = makeRoot()
        let server = ServerBasket([(Catalog.cap, 1)])
        basket.onBasket = { .success(server.body) }
        root.basketButtonTapped()
        await root.basket.task()
        checkout.answer([.failure(.unavailable), .success(order("ord_1"))])
        root.basket.payButtonTapped()
        await root.basket.confirmPaymentTapped()

        root.destination = nil  // the shopper closes the basket, then opens it again
        root.basketButtonTapped()
        guard case .basket(let reopened) = root.destination else { return #expect(Bool(false), "no basket") }
        await reopened.task()
        reopened.payButtonTapped()
        await reopened.confirmPaymentTapped()
        #expect(checkout.keys.map(\.rawValue) == ["key-1", "key-1"])
        #expect(reopened.destination == .receipt(order("ord_1")))
    }

    @Test("a counter changed on Products is a new payment attempt on the basket screen")
    func productCounterStartsNewAttempt() async {
        let root = makeRoot()
        var server = ServerBasket([(Catalog.cap, 1)])
        catalog.onProducts = { .success(Catalog.all) }
        basket.onBasket = { .success(server.body) }
        basket.onSetQuantity = { quantity, id in
            server.set(quantity, of: id)
            return .success(server.body)
        }
        await root.productList.task()
        await root.basket.task()
        checkout.answer([.failure(.unavailable), .success(order("ord_1"))])
        root.basket.payButtonTapped()
        await root.basket.confirmPaymentTapped()
        #expect(root.basket.paymentFailure == .unavailable)

        await root.productList.plusButtonTapped(product: Catalog.cap)
        #expect(root.basket.basket?.items.first?.quantity == 2)
        #expect(root.basket.paymentFailure == nil)
        root.basket.payButtonTapped()
        await root.basket.confirmPaymentTapped()
        #expect(checkout.keys.map(\.rawValue) == ["key-1", "key-2"])
    }

    @Test("logging in shows who is logged in and starts the screens afresh")
    func logIn() async {
        let root = makeRoot()
        let oldProfile = root.profile
        root.logInButtonTapped()
        guard case .login(let login) = root.destination else { return #expect(Bool(false), "no login form") }
        session.onLogin = { request in
            #expect(request == LoginRequest(email: "pro@onlinestore.test", password: "pro-demo-password"))
            return .success(LoginResponse(token: "t", customer: Self.customer))
        }
        login.email = " pro@onlinestore.test "
        login.password = "pro-demo-password"
        await login.logInButtonTapped()
        #expect(root.customer == Self.customer)
        #expect(root.destination == nil)
        #expect(root.profile !== oldProfile)
        #expect(login.password == "")
    }

    @Test("wrong credentials keep the form open with the server's message")
    func wrongCredentials() async {
        let root = makeRoot()
        root.logInButtonTapped()
        guard case .login(let login) = root.destination else { return #expect(Bool(false), "no login form") }
        session.onLogin = { _ in .failure(.unauthorized(message: "The email or password is incorrect.")) }
        login.email = "pro@onlinestore.test"
        login.password = "wrong"
        await login.logInButtonTapped()
        #expect(login.errorMessage == "The email or password is incorrect.")
        #expect(root.customer == nil)
        guard case .login = root.destination else { return #expect(Bool(false), "the form closed") }
    }

    @Test("logging out resets every screen and forgets the cached subscription")
    func logOut() async {
        let root = makeRoot()
        root.logInButtonTapped()
        guard case .login(let login) = root.destination else { return #expect(Bool(false), "no login form") }
        session.onLogin = { _ in .success(LoginResponse(token: "t", customer: Self.customer)) }
        login.email = "pro@onlinestore.test"
        login.password = "pro-demo-password"
        await login.logInButtonTapped()

        profile.onProfile = {
            .success(
                ProfileBody(
                    firstName: "Ada", lastName: "Lovelace", email: "pro@onlinestore.test", tier: .pro,
                    subscription: SubscriptionBody(
                        expiresAt: referenceDate.addingTimeInterval(86_400), willAutoRenew: true)
                ))
        }
        await root.profile.task()
        #expect(root.profile.tier == .pro)
        #expect(cache.stored != nil)
        root.selectedTab = .profile

        var loggedOut = false
        session.onLogout = { loggedOut = true }
        await root.logOutButtonTapped()
        #expect(loggedOut)
        #expect(root.customer == nil)
        #expect(root.selectedTab == .products)
        #expect(cache.stored == nil)
        #expect(root.profile.tier == nil)
        #expect(root.profile.state == .notStarted)
        #expect(root.productList.state == .notStarted)
        #expect(root.basket.state == .notStarted)
        #expect(root.orders.state == .notStarted)
    }
}
