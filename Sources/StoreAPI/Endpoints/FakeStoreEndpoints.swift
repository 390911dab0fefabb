/// The Fake-Store-compatible routes (docs/BEHAVIOUR.md, "HTTP API"), in that public API's shapes,
/// so an app written against it runs against this store by changing only the host.
public enum FakeStoreEndpoints {
    public static let products = Endpoint<NoBody, [FakeStoreProduct]>(.get, "/products")
    public static let product = Endpoint<NoBody, FakeStoreProduct>(.get, "/products/{id}")
    public static let categories = Endpoint<NoBody, [String]>(.get, "/products/categories")
    public static let category = Endpoint<NoBody, [FakeStoreProduct]>(.get, "/products/category/{name}")
    /// A customer's public record: the demo customers to anyone, every other only to themselves.
    public static let user = Endpoint<NoBody, FakeStoreUser>(.get, "/users/{id}")
    /// Lines into the caller's basket, or a new anonymous one (token in `X-Session-Token`).
    public static let carts = Endpoint<FakeStoreCartRequest, FakeStoreCart>(.post, "/carts")
    public static let login = Endpoint<FakeStoreLoginRequest, FakeStoreLoginResponse>(.post, "/auth/login")
}
