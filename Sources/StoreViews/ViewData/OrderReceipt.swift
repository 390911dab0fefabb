import CheckoutKit
import Foundation

/// A paid order as its receipt at `/orders/{id}` shows it: lines at the prices charged, the
/// sums, the fee, the total charged, the method and the time; where the payment stands and each
/// refund (docs/BEHAVIOUR.md §14).
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

    /// Money that went back (or is on its way back) to the shopper.
    public struct Refund: Hashable, Sendable {
        /// Units of one of the order's lines.
        public struct Line: Hashable, Sendable {
            public var title: String
            public var quantity: Int
            public var amount: Money

            public init(title: String, quantity: Int, amount: Money) {
                self.title = title
                self.quantity = quantity
                self.amount = amount
            }
        }

        /// `succeeded` or `pending`: a failed refund gave nothing back and is not on the receipt.
        public var state: RefundState
        public var kind: RefundKind
        public var amount: Money
        public var lines: [Line]
        public var shipping: Money
        public var fee: Money
        /// When the money went back; for a pending refund, when it was asked for.
        public var date: Date

        public init(
            state: RefundState, kind: RefundKind, amount: Money, lines: [Line], shipping: Money, fee: Money, date: Date
        ) {
            self.state = state
            self.kind = kind
            self.amount = amount
            self.lines = lines
            self.shipping = shipping
            self.fee = fee
            self.date = date
        }

        /// The receipt's view of `refund`.
        public init(_ refund: CheckoutKit.Refund) {
            self.init(
                state: refund.state, kind: refund.kind, amount: refund.amount,
                lines: refund.lines.map { Line(title: $0.title, quantity: $0.quantity, amount: $0.amount) },
                shipping: refund.shipping, fee: refund.fee,
                date: refund.state == .succeeded ? refund.settledAt ?? refund.createdAt : refund.createdAt)
        }
    }

    /// The order's opaque identifier, e.g. `ord_…`.
    public var id: String
    public var paymentStatus: PaymentStatus
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
    /// What succeeded refunds gave back in all.
    public var refunded: Money
    /// Succeeded and pending refunds, oldest first.
    public var refunds: [Refund]

    public init(
        id: String, paymentStatus: PaymentStatus, lines: [Line], subtotal: Money, discount: Money, shipping: Money,
        fee: Money, total: Money, method: PaymentMethod.Kind, cardBrand: String? = nil, promotionCode: String? = nil,
        placedAt: Date, refunded: Money? = nil, refunds: [Refund] = []
    ) {
        self.id = id
        self.paymentStatus = paymentStatus
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
        self.refunded = refunded ?? .zero(total.currency)
        self.refunds = refunds
    }

    /// The receipt of a paid order, with its refunds.
    public init(_ placed: ShopperOrder) {
        let order = placed.order
        self.init(
            id: order.id.rawValue, paymentStatus: placed.paymentStatus,
            lines: order.lines.map {
                Line(title: $0.title, unitPrice: $0.unitPrice, quantity: $0.quantity, lineTotal: $0.lineTotal)
            },
            subtotal: order.subtotal, discount: order.discount, shipping: order.shipping, fee: order.fee,
            total: order.total, method: order.paymentMethod, cardBrand: order.cardBrand,
            promotionCode: order.promotionCode?.rawValue, placedAt: order.createdAt, refunded: placed.refunded,
            refunds: placed.refunds.map(Refund.init))
    }

    /// What pending refunds are giving back, in all; `nil` when none is pending (or their amounts
    /// cannot be added up).
    public var pending: Money? {
        let amounts = refunds.filter { $0.state == .pending }.map(\.amount)
        guard !amounts.isEmpty else { return nil }
        return try? Money.sum(amounts, in: total.currency)
    }
}
