import CheckoutKit
import Foundation

/// The shopper's orders at `/orders`, newest first, each linking to its receipt.
public struct OrdersPage: Hashable, Sendable {
    /// One order in the list.
    public struct Entry: Hashable, Sendable, Identifiable {
        /// The order's opaque identifier, e.g. `ord_…`.
        public var id: String
        public var placedAt: Date
        /// How many units the order holds.
        public var itemCount: Int
        /// What was charged, fee included.
        public var total: Money
        public var status: OrderStatus

        public init(id: String, placedAt: Date, itemCount: Int, total: Money, status: OrderStatus) {
            self.id = id
            self.placedAt = placedAt
            self.itemCount = itemCount
            self.total = total
            self.status = status
        }

        /// The entry for a paid order.
        public init(_ order: Order) {
            self.init(
                id: order.id.rawValue, placedAt: order.createdAt,
                itemCount: order.lines.reduce(0) { $0 + $1.quantity }, total: order.total, status: order.status)
        }
    }

    public var orders: [Entry]

    public init(orders: [Entry]) {
        self.orders = orders
    }
}
