import Observation
import StoreAPI
import StoreClient

/// The app: tabs Products / Orders / Profile, the basket opened from Products, login and logout
/// (docs/BEHAVIOUR.md §10).
///
/// The root wires its screens together: a basket changed on the basket screen moves the product
/// counters and the other way round, and a payment empties them and puts the order on the Orders
/// tab. The basket screen lives as long as the shopper's session, not as long as it is shown, so a
/// payment whose outcome is unknown is retried with its key after the basket is closed and opened
/// again. Logging in or out starts every screen afresh, so nothing of one shopper is shown to the next.
@MainActor
@Observable
public final class RootModel {
    public enum Tab: Hashable, Sendable, CaseIterable {
        case products
        case orders
        case profile
    }

    /// What the app presents over the tabs.
    public enum Destination {
        /// The basket and its checkout, opened from Products.
        case basket(BasketModel)
        /// The login form.
        case login(LoginModel)
    }

    public var selectedTab: Tab = .products
    public var destination: Destination?
    /// The logged-in customer; `nil` for an anonymous shopper.
    public private(set) var customer: CustomerBody?
    public private(set) var productList: ProductListModel
    /// The basket and checkout, shown as ``Destination/basket(_:)``.
    public private(set) var basket: BasketModel
    public private(set) var orders: OrdersModel
    public private(set) var profile: ProfileModel

    private let dependencies: AppDependencies

    public init(dependencies: AppDependencies) {
        self.dependencies = dependencies
        productList = ProductListModel(catalog: dependencies.clients.catalog, basket: dependencies.clients.basket)
        basket = Self.makeBasket(dependencies)
        orders = OrdersModel(
            orders: dependencies.clients.orders, locale: dependencies.locale, timeZone: dependencies.timeZone)
        profile = Self.makeProfile(dependencies)
        connectScreens()
    }

    // MARK: What the person did

    /// The basket button on Products: opens the basket.
    public func basketButtonTapped() {
        destination = .basket(basket)
    }

    /// Log in: opens the login form.
    public func logInButtonTapped() {
        let login = LoginModel(session: dependencies.clients.session)
        login.onLoggedIn = { [weak self] customer in self?.loggedIn(customer) }
        destination = .login(login)
    }

    /// Log out: ends the session, forgets the cached subscription and starts every screen afresh.
    public func logOutButtonTapped() async {
        guard customer != nil else { return }
        await dependencies.clients.session.logout()
        customer = nil
        resetScreens()
        selectedTab = .products
    }

    // MARK: Work

    private func loggedIn(_ customer: CustomerBody) {
        self.customer = customer
        resetScreens()
    }

    /// Fresh screens for a new shopper; the previous one's subscription facts are forgotten.
    private func resetScreens() {
        destination = nil
        try? dependencies.subscriptionCache.remove()
        productList = ProductListModel(catalog: dependencies.clients.catalog, basket: dependencies.clients.basket)
        basket = Self.makeBasket(dependencies)
        orders = OrdersModel(
            orders: dependencies.clients.orders, locale: dependencies.locale, timeZone: dependencies.timeZone)
        profile = Self.makeProfile(dependencies)
        connectScreens()
    }

    /// A basket changed on one screen shows on the other; a payment's order joins the orders.
    private func connectScreens() {
        productList.onBasketChanged = { [weak self] body in self?.basket.basketChangedElsewhere(body) }
        basket.onBasketChanged = { [weak self] body in self?.productList.basketChanged(body) }
        basket.onPaid = { [weak self] order in self?.orders.orderPlaced(order) }
    }

    private static func makeBasket(_ dependencies: AppDependencies) -> BasketModel {
        BasketModel(
            basket: dependencies.clients.basket, checkout: dependencies.clients.checkout,
            makeKey: dependencies.makeKey, sleep: dependencies.sleep, locale: dependencies.locale)
    }

    private static func makeProfile(_ dependencies: AppDependencies) -> ProfileModel {
        ProfileModel(
            profile: dependencies.clients.profile, cache: dependencies.subscriptionCache, now: dependencies.now,
            locale: dependencies.locale, timeZone: dependencies.timeZone)
    }
}
