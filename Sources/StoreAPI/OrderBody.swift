import CheckoutKit
import Foundation

/// An order as the API shows it (docs/BEHAVIOUR.md §9, §14): the prices as charged, where the
/// payment stands and the refunds that gave money back.
public struct OrderBody: Codable, Hashable, Sendable {
    /// Opaque and not guessable.
    public var id: String
    /// `paid` or `refunded`.
    public var status: String
    public var lines: [OrderLineBody]
    public var subtotal: Money
    public var discount: Money
    public var shipping: Money
    public var fee: Money
    /// What was charged, fee included.
    public var total: Money
    /// `type`, and for cards the `brand` the provider reported. Never a token or a card number.
    public var paymentMethod: PaymentMethodBody
    /// The promotion code that gave a discount, if any.
    public var promotion: String?
    public var createdAt: Date
    /// `paid`, `partially_refunded` or `refunded`. An answer kept from before refunds existed (a
    /// checkout replayed for its key) has none: it reads as `paid`.
    public var paymentStatus: String
    /// The order's succeeded and pending refunds as its shopper sees them (no note, nor who asked,
    /// nor the provider's reason), oldest first. A failed refund gave nothing back, so it is left
    /// out. An answer kept from before refunds existed has none: `[]`.
    public var refunds: [RefundBody]

    private enum CodingKeys: String, CodingKey {
        case id
        case status
        case lines
        case subtotal
        case discount
        case shipping
        case fee
        case total
        case paymentMethod = "payment_method"
        case promotion
        case createdAt = "created_at"
        case paymentStatus = "payment_status"
        case refunds
    }

    public init(
        id: String, status: String, lines: [OrderLineBody], subtotal: Money, discount: Money, shipping: Money,
        fee: Money, total: Money, paymentMethod: PaymentMethodBody, promotion: String?, createdAt: Date,
        paymentStatus: String = PaymentStatus.paid.rawValue, refunds: [RefundBody] = []
    ) {
        self.id = id
        self.status = status
        self.lines = lines
        self.subtotal = subtotal
        self.discount = discount
        self.shipping = shipping
        self.fee = fee
        self.total = total
        self.paymentMethod = paymentMethod
        self.promotion = promotion
        self.createdAt = createdAt
        self.paymentStatus = paymentStatus
        self.refunds = refunds
    }

    /// `placed` as its shopper sees it: its payment status and its refunds.
    public init(_ placed: ShopperOrder) {
        let order = placed.order
        self.init(
            id: order.id.rawValue, status: order.status.rawValue, lines: order.lines.map(OrderLineBody.init),
            subtotal: order.subtotal, discount: order.discount, shipping: order.shipping, fee: order.fee,
            total: order.total,
            paymentMethod: PaymentMethodBody(type: order.paymentMethod.rawValue, brand: order.cardBrand),
            promotion: order.promotionCode?.rawValue, createdAt: order.createdAt,
            paymentStatus: placed.paymentStatus.rawValue,
            refunds: placed.refunds.map { RefundBody($0, forShopper: true) })
    }

    /// A freshly paid order, as the checkout answers it: `paid`, with no refunds.
    public init(paid order: Order) {
        self.init(ShopperOrder(paid: order))
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        status = try container.decode(String.self, forKey: .status)
        lines = try container.decode([OrderLineBody].self, forKey: .lines)
        subtotal = try container.decode(Money.self, forKey: .subtotal)
        discount = try container.decode(Money.self, forKey: .discount)
        shipping = try container.decode(Money.self, forKey: .shipping)
        fee = try container.decode(Money.self, forKey: .fee)
        total = try container.decode(Money.self, forKey: .total)
        paymentMethod = try container.decode(PaymentMethodBody.self, forKey: .paymentMethod)
        promotion = try container.decodeIfPresent(String.self, forKey: .promotion)
        createdAt = try StoreJSON.date(
            container.decode(String.self, forKey: .createdAt), forKey: .createdAt, in: container)
        paymentStatus =
            try container.decodeIfPresent(String.self, forKey: .paymentStatus) ?? PaymentStatus.paid.rawValue
        refunds = try container.decodeIfPresent([RefundBody].self, forKey: .refunds) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(status, forKey: .status)
        try container.encode(lines, forKey: .lines)
        try container.encode(subtotal, forKey: .subtotal)
        try container.encode(discount, forKey: .discount)
        try container.encode(shipping, forKey: .shipping)
        try container.encode(fee, forKey: .fee)
        try container.encode(total, forKey: .total)
        try container.encode(paymentMethod, forKey: .paymentMethod)
        try container.encodeIfPresent(promotion, forKey: .promotion)
        try container.encode(StoreJSON.timestamp(createdAt), forKey: .createdAt)
        try container.encode(paymentStatus, forKey: .paymentStatus)
        try container.encode(refunds, forKey: .refunds)
    }
}

/// One order line, at the price of the time: the same shape as a basket line.
public typealias OrderLineBody = LineItemBody

extension LineItemBody {
    public init(_ line: OrderLine) {
        self.init(
            productID: line.productID.rawValue, title: line.title, unitPrice: line.unitPrice, quantity: line.quantity,
            lineTotal: line.lineTotal)
    }
}
