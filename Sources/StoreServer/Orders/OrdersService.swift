import CheckoutKit
import StoreDatabase

/// A shopper's own orders; anyone else's do not exist for them.
struct OrdersService: Sendable {
    let database: StoreDatabase

    func orders(of shopper: Shopper) async throws -> [Order] {
        try await database.orders.orders(for: shopper.id)
    }

    /// The shopper's order `id`, or `nil` when it is not theirs or does not exist.
    func order(_ id: OrderID, of shopper: Shopper) async throws -> Order? {
        try await database.orders.order(id, for: shopper.id)
    }
}
