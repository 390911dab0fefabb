import CheckoutKit
import Foundation

/// A paid order as its receipt at `/orders/{id}` shows it: lines at the prices charged, the
/// sums, the fee, the total charged, the method and the time.
public struct OrderReceipt: Hashable, Sendable {
    /// One line of the receipt.
    public struct Line: Hashable, Sendable {
        public var title: String
        public var unitPrice: Money
        public var quantity: Int
        public var lineTotal: Money

        public init(title: String, unitPrice: Money, quantity: Int, lineTotal: Money) {
            self.title = title
            self.unitPrice = unitPrice
            self.quantity = quantity
            self.lineTotal = lineTotal
        }
    }

    /// The order's opaque identifier, e.g. `ord_…`.
    public var id: String
    public var status: OrderStatus
    public var lines: [Line]
    public var subtotal: Money
    public var discount: Money
    public var shipping: Money
    public var fee: Money
    /// What was charged, fee included.
    public var total: Money
    public var method: PaymentMethod.Kind
    /// The card brand the provider reported, e.g. `visa`.
    public var cardBrand: String?
    public var promotionCode: String?
    public var placedAt: Date

    public init(
        id: String, status: OrderStatus, lines: [Line], subtotal: Money, discount: Money, shipping: Money, fee: Money,
        total: Money, method: PaymentMethod.Kind, cardBrand: String? = nil, promotionCode: String? = nil,
        placedAt: Date
    ) {
        self.id = id
        self.status = status
        self.lines = lines
        self.subtotal = subtotal
        self.discount = discount
        self.shipping = shipping
        self.fee = fee
        self.total = total
        self.method = method
        self.cardBrand = cardBrand
        self.promotionCode = promotionCode
        self.placedAt = placedAt
    }

    /// The receipt of a paid order.
    public init(_ order: Order) {
        self.init(
            id: order.id.rawValue, status: order.status,
            lines: order.lines.map {
                Line(title: $0.title, unitPrice: $0.unitPrice, quantity: $0.quantity, lineTotal: $0.lineTotal)
            },
            subtotal: order.subtotal, discount: order.discount, shipping: order.shipping, fee: order.fee,
            total: order.total, method: order.paymentMethod, cardBrand: order.cardBrand,
            promotionCode: order.promotionCode?.rawValue, placedAt: order.createdAt)
    }
}
