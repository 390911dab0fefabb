import CheckoutKit
import Foundation
import StoreSQL

/// Reads a shopper's orders. Every method is scoped to one shopper: another's order is "not found".
public struct OrderRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    static let columns: SQLQuery = """
        o.id, o.status, o.currency, o.subtotal_minor, o.discount_minor, o.shipping_minor, o.fee_minor, o.total_minor,
        o.payment_method, o.card_brand, o.promotion_code, o.created_at
        """

    /// The shopper's orders, newest first.
    public func orders(for shopper: ShopperID) async throws -> [Order] {
        try await database.read { connection in
            let orderRows = try connection.query(
                """
                SELECT \(Self.columns) FROM orders o WHERE o.shopper_id = \(shopper.rawValue)
                ORDER BY o.created_at DESC, o.id
                """)
            let lineRows = try connection.query(
                """
                SELECT l.order_id, l.product_id, l.title, l.unit_price_minor, l.quantity, l.line_total_minor
                FROM order_lines l JOIN orders o ON o.id = l.order_id
                WHERE o.shopper_id = \(shopper.rawValue)
                ORDER BY l.order_id, l.position
                """)
            var linesByOrder: [String: [SQLRow]] = [:]
            for row in lineRows { linesByOrder[try row.decode("order_id"), default: []].append(row) }
            return try orderRows.map { row in
                try Self.order(row, lines: linesByOrder[try row.decode("id")] ?? [])
            }
        }
    }

    /// The shopper's order `id`, or `nil` when it does not exist *or belongs to someone else*.
    public func order(_ id: OrderID, for shopper: ShopperID) async throws -> Order? {
        try await database.read { connection in
            guard
                let row = try connection.queryFirst(
                    "SELECT \(Self.columns) FROM orders o WHERE o.id = \(id.rawValue) AND o.shopper_id = \(shopper.rawValue)"
                )
            else { return nil }
            let lines = try connection.query(
                """
                SELECT product_id, title, unit_price_minor, quantity, line_total_minor FROM order_lines
                WHERE order_id = \(id.rawValue) ORDER BY position
                """)
            return try Self.order(row, lines: lines)
        }
    }

    static func order(_ row: SQLRow, lines: [SQLRow]) throws -> Order {
        let total = try row.money("total_minor")
        guard let status = OrderStatus(rawValue: try row.decode("status")) else {
            throw DatabaseError.decoding(column: "status", expected: "an order status")
        }
        guard let method = PaymentMethod.Kind(rawValue: try row.decode("payment_method")) else {
            throw DatabaseError.decoding(column: "payment_method", expected: "a payment method")
        }
        return Order(
            id: OrderID(rawValue: try row.decode("id")), status: status,
            lines: try lines.map { try OrderLine.read($0, currency: total.currency) },
            subtotal: try row.money("subtotal_minor"), discount: try row.money("discount_minor"),
            shipping: try row.money("shipping_minor"), fee: try row.money("fee_minor"), total: total,
            paymentMethod: method, cardBrand: try row.decode("card_brand"),
            promotionCode: try row.decode("promotion_code", as: String?.self).flatMap(PromotionCode.init(rawValue:)),
            createdAt: try row.date("created_at"))
    }
}
