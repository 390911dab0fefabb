/// Every client protocol the app needs, handed to the root model in one value.
///
/// The live client is one object implementing them all (``init(_:)``); tests pass a fake per protocol.
public struct StoreClients: Sendable {
    public var catalog: any CatalogClient
    public var basket: any BasketClient
    public var checkout: any CheckoutClient
    public var orders: any OrdersClient
    public var session: any SessionClient
    public var profile: any ProfileClient

    public init(
        catalog: any CatalogClient, basket: any BasketClient, checkout: any CheckoutClient,
        orders: any OrdersClient, session: any SessionClient, profile: any ProfileClient
    ) {
        self.catalog = catalog
        self.basket = basket
        self.checkout = checkout
        self.orders = orders
        self.session = session
        self.profile = profile
    }

    /// One client that speaks every part of the API.
    public init(
        _ client: some CatalogClient & BasketClient & CheckoutClient & OrdersClient & SessionClient & ProfileClient
    ) {
        self.init(catalog: client, basket: client, checkout: client, orders: client, session: client, profile: client)
    }
}
