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
        /// Paid, partially refunded or refunded.
        public var paymentStatus: PaymentStatus

        public init(id: String, placedAt: Date, itemCount: Int, total: Money, paymentStatus: PaymentStatus) {
            self.id = id
            self.placedAt = placedAt
            self.itemCount = itemCount
            self.total = total
            self.paymentStatus = paymentStatus
        }

        /// The entry for a paid order.
        public init(_ placed: ShopperOrder) {
            let order = placed.order
            self.init(
                id: order.id.rawValue, placedAt: order.createdAt,
                itemCount: order.lines.reduce(0) { $0 + $1.quantity }, total: order.total,
                paymentStatus: placed.paymentStatus)
        }
    }

    public var orders: [Entry]

    public init(orders: [Entry]) {
        self.orders = orders
    }
}
