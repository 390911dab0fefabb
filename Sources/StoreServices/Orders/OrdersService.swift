import CheckoutKit
import StoreDatabase

/// A shopper's own orders with their payment status and refunds; anyone else's do not exist for
/// them.
package struct OrdersService: Sendable {
    package let database: StoreDatabase

    package init(database: StoreDatabase) {
        self.database = database
    }

    /// The shopper's orders, newest first.
    package func orders(of shopper: Shopper) async throws -> [ShopperOrder] {
        try await database.orders.orders(for: shopper.id)
    }

    /// The shopper's order `id`, or `nil` when it is not theirs or does not exist.
    package func order(_ id: OrderID, of shopper: Shopper) async throws -> ShopperOrder? {
        try await database.orders.order(id, for: shopper.id)
    }
}
