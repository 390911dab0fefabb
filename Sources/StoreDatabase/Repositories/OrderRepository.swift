import CheckoutKit
import Foundation
import StoreSQL

/// Reads a shopper's orders with their refunds (docs/BEHAVIOUR.md §7, §14). Every method is scoped
/// to one shopper: another's order is "not found".
public struct OrderRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    static let columns: SQLQuery = """
        o.id, o.status, o.currency, o.subtotal_minor, o.discount_minor, o.shipping_minor, o.fee_minor, o.total_minor,
        o.payment_method, o.card_brand, o.promotion_code, o.created_at, o.refunded_minor
        """

    /// The shopper's orders, newest first, each with its refunds — four statements sent together
    /// (one round trip on PostgreSQL, one snapshot), however many orders there are.
    public func orders(for shopper: ShopperID) async throws -> [ShopperOrder] {
        try await database.read { connection in
            let answers = try connection.queryTogether(
                [
                    """
                    SELECT \(Self.columns) FROM orders o WHERE o.shopper_id = \(shopper.rawValue)
                    ORDER BY o.created_at DESC, o.id
                    """,
                    """
                    SELECT l.order_id, l.product_id, l.title, l.unit_price_minor, l.quantity, l.line_total_minor
                    FROM order_lines l JOIN orders o ON o.id = l.order_id
                    WHERE o.shopper_id = \(shopper.rawValue)
                    ORDER BY l.order_id, l.position
                    """,
                ] + Self.refundQueries(where: "o.shopper_id = \(shopper.rawValue)"))
            var linesByOrder: [String: [SQLRow]] = [:]
            for row in answers[1] { linesByOrder[try row.decode("order_id"), default: []].append(row) }
            let refunds = try Self.refunds(rows: answers[2], lines: answers[3])
            return try answers[0].map { row in
                let id = try row.decode("id", as: String.self)
                return try Self.shopperOrder(
                    row, lines: linesByOrder[id] ?? [], refunds: refunds[OrderID(rawValue: id)] ?? [])
            }
        }
    }

    /// The shopper's order `id` with its refunds, or `nil` when it does not exist *or belongs to
    /// someone else*: four statements sent together (one round trip on PostgreSQL, one snapshot).
    public func order(_ id: OrderID, for shopper: ShopperID) async throws -> ShopperOrder? {
        try await database.lookup { connection in
            let mine: SQLQuery = "o.id = \(id.rawValue) AND o.shopper_id = \(shopper.rawValue)"
            let answers = try connection.queryTogether(
                [
                    "SELECT \(Self.columns) FROM orders o WHERE \(mine)",
                    """
                    SELECT l.product_id, l.title, l.unit_price_minor, l.quantity, l.line_total_minor
                    FROM order_lines l JOIN orders o ON o.id = l.order_id
                    WHERE \(mine) ORDER BY l.position
                    """,
                ] + Self.refundQueries(where: mine))
            guard let row = answers[0].first else { return nil }
            let refunds = try Self.refunds(rows: answers[2], lines: answers[3])
            return try Self.shopperOrder(row, lines: answers[1], refunds: refunds[id] ?? [])
        }
    }

    /// The statements that read the succeeded and pending refunds of the orders `condition` selects
    /// (over `refunds r` joined to `orders o`), then their lines: two statements whatever their
    /// number, for ``refunds(rows:lines:)``. Failed refunds gave nothing back; the shopper never
    /// sees them.
    static func refundQueries(where condition: SQLQuery) -> [SQLQuery] {
        [
            """
            SELECT \(RefundRepository.columns) FROM refunds r JOIN orders o ON o.id = r.order_id
            WHERE \(condition) AND r.state <> 'failed' ORDER BY r.created_at, r.id
            """,
            """
            SELECT l.refund_id, l.position, l.product_id, l.title, l.quantity, l.amount_minor, l.restock, r.currency
            FROM refund_lines l JOIN refunds r ON r.id = l.refund_id JOIN orders o ON o.id = r.order_id
            WHERE \(condition) AND r.state <> 'failed'
            ORDER BY l.refund_id, l.position
            """,
        ]
    }

    /// The refunds, with their lines, by order, oldest first, from the answers to
    /// ``refundQueries(where:)``.
    static func refunds(rows refundRows: [SQLRow], lines lineRows: [SQLRow]) throws -> [OrderID: [Refund]] {
        var linesByRefund: [String: [RefundLine]] = [:]
        for row in lineRows {
            let currency = try row.money("amount_minor").currency
            linesByRefund[try row.decode("refund_id"), default: []].append(
                try RefundRepository.line(row, currency: currency))
        }
        var byOrder: [OrderID: [Refund]] = [:]
        for row in refundRows {
            let refund = try RefundRepository.refund(row, lines: linesByRefund[try row.decode("id")] ?? [])
            byOrder[refund.orderID, default: []].append(refund)
        }
        return byOrder
    }

    static func shopperOrder(_ row: SQLRow, lines: [SQLRow], refunds: [Refund]) throws -> ShopperOrder {
        let order = try Self.order(row, lines: lines)
        return ShopperOrder(
            order: order,
            refunded: Money(minorUnits: try row.decode("refunded_minor"), currency: order.total.currency),
            refunds: refunds)
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
