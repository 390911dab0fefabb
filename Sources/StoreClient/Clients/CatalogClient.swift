import StoreAPI

/// The public catalog (docs/BEHAVIOUR.md §9): products and categories. Needs no session.
public protocol CatalogClient: Sendable {
    /// `GET /api/products` — every product.
    func products() async throws(StoreClientError) -> [ProductBody]

    /// `GET /api/products/{id}` — one product; ``StoreClientError/notFound(message:)`` for an unknown id.
    func product(id: Int64) async throws(StoreClientError) -> ProductBody

    /// `GET /api/categories` — the category names.
    func categories() async throws(StoreClientError) -> [String]

    /// `GET /api/categories/{name}/products` — the products of one category;
    /// ``StoreClientError/notFound(message:)`` for an unknown category.
    func products(inCategory name: String) async throws(StoreClientError) -> [ProductBody]
}
