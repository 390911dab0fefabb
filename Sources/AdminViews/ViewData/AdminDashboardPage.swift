import CheckoutKit
import Foundation

/// The dashboard at `/admin`: today's orders and revenue, the orders waiting to be packed, and the
/// products low on stock or sold out.
public struct AdminDashboardPage: Hashable, Sendable {
    /// A product whose stock needs looking at.
    public struct StockAlert: Hashable, Sendable, Identifiable {
        public var id: ProductID
        public var title: String
        public var sku: String
        public var stock: Int

        public init(id: ProductID, title: String, sku: String, stock: Int) {
            self.id = id
            self.title = title
            self.sku = sku
            self.stock = stock
        }
    }

    /// At or below this many units (and above zero), a product is low on stock.
    public static let lowStockThreshold = StockLevel.lowStockThreshold

    /// The day the figures are for (any instant of it; shown in the context's time zone).
    public var day: Date
    /// Orders placed that day.
    public var ordersToday: Int
    /// What those orders charged, fee included, less nothing refunded since.
    public var revenueToday: Money
    /// Paid orders not yet packed (fulfilment `unfulfilled`).
    public var ordersToPack: Int
    /// Active products with 1 to ``lowStockThreshold`` units, fewest first.
    public var lowStock: [StockAlert]
    /// Active products with no units.
    public var soldOut: [StockAlert]

    public init(
        day: Date, ordersToday: Int, revenueToday: Money, ordersToPack: Int, lowStock: [StockAlert],
        soldOut: [StockAlert]
    ) {
        self.day = day
        self.ordersToday = ordersToday
        self.revenueToday = revenueToday
        self.ordersToPack = ordersToPack
        self.lowStock = lowStock
        self.soldOut = soldOut
    }
}
