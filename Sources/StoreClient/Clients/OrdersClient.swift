import StoreAPI

/// The shopper's own orders (docs/BEHAVIOUR.md §7, §9).
public protocol OrdersClient: Sendable {
    /// `GET /api/orders` — the shopper's orders.
    func orders() async throws(StoreClientError) -> [OrderBody]

    /// `GET /api/orders/{id}` — one receipt; ``StoreClientError/notFound(message:)`` for an order
    /// that is not the shopper's.
    func order(id: String) async throws(StoreClientError) -> OrderBody
}
