/// The store's native JSON API (docs/BEHAVIOUR.md, "HTTP API"): every endpoint, once.
public enum Endpoints {
    // Catalog: public.
    public static let products = Endpoint<NoBody, [ProductBody]>(.get, "/api/products")
    public static let product = Endpoint<NoBody, ProductBody>(.get, "/api/products/{id}")
    public static let categories = Endpoint<NoBody, [String]>(.get, "/api/categories")
    public static let categoryProducts = Endpoint<NoBody, [ProductBody]>(.get, "/api/categories/{name}/products")
    /// A product image (SVG, cacheable).
    public static let image = Endpoint<NoBody, RawBytes>(.get, "/images/{file}")

    // Sessions.
    /// A new anonymous shopper (201).
    public static let createSession = Endpoint<NoBody, SessionResponse>(.post, "/api/sessions")
    /// A customer session, keeping the basket (and payments) of the bearer's anonymous session.
    public static let login = Endpoint<LoginRequest, LoginResponse>(.post, "/api/login")
    /// Ends the bearer's session (204).
    public static let logout = Endpoint<NoBody, NoBody>(.post, "/api/logout", access: .session)

    // The basket: each change answers with the basket as it now is.
    public static let basket = Endpoint<NoBody, BasketBody>(.get, "/api/basket", access: .session)
    public static let setQuantity = Endpoint<SetQuantityRequest, BasketBody>(
        .put, "/api/basket/items/{product_id}", access: .session)
    public static let removeLine = Endpoint<NoBody, BasketBody>(
        .delete, "/api/basket/items/{product_id}", access: .session)
    public static let applyPromotion = Endpoint<ApplyPromotionRequest, BasketBody>(
        .put, "/api/basket/promotion", access: .session)
    public static let removePromotion = Endpoint<NoBody, BasketBody>(
        .delete, "/api/basket/promotion", access: .session)

    /// Pays the basket (201), with the `Idempotency-Key` header.
    public static let checkout = Endpoint<CheckoutRequest, OrderBody>(.post, "/api/checkout", access: .session)
    /// The header that carries a checkout's idempotency key.
    public static let idempotencyKeyHeader = "Idempotency-Key"

    // Orders and profile.
    public static let orders = Endpoint<NoBody, [OrderBody]>(.get, "/api/orders", access: .session)
    public static let order = Endpoint<NoBody, OrderBody>(.get, "/api/orders/{id}", access: .session)
    public static let profile = Endpoint<NoBody, ProfileBody>(.get, "/api/profile", access: .session)
}
