import CheckoutKit
import Foundation

/// The shopper's basket, priced (docs/BEHAVIOUR.md §9 `GET /api/basket`).
public struct BasketBody: Codable, Hashable, Sendable {
    public var items: [BasketItemBody]
    public var subtotal: Money
    public var discount: Money
    public var shipping: Money
    /// subtotal − discount + shipping: what the shopper confirms as `expected_total`.
    public var total: Money
    public var amountToFreeShipping: Money?
    public var promotion: PromotionBody?
    /// "Add €X more to use CODE." while the subtotal is below the promotion's minimum.
    public var promoNotice: String?
    public var tier: Tier
    /// Each payment method with its fee and the amount due (total + fee).
    public var paymentOptions: [PaymentOptionBody]

    private enum CodingKeys: String, CodingKey {
        case items
        case subtotal
        case discount
        case shipping
        case total
        case amountToFreeShipping = "amount_to_free_shipping"
        case promotion
        case promoNotice = "promo_notice"
        case tier
        case paymentOptions = "payment_options"
    }

    public init(
        items: [BasketItemBody], subtotal: Money, discount: Money, shipping: Money, total: Money,
        amountToFreeShipping: Money?, promotion: PromotionBody?, promoNotice: String?, tier: Tier,
        paymentOptions: [PaymentOptionBody]
    ) {
        self.items = items
        self.subtotal = subtotal
        self.discount = discount
        self.shipping = shipping
        self.total = total
        self.amountToFreeShipping = amountToFreeShipping
        self.promotion = promotion
        self.promoNotice = promoNotice
        self.tier = tier
        self.paymentOptions = paymentOptions
    }

    /// The body for `lines` priced as `price`, with the payment options of `quotes`.
    ///
    /// - Parameter locale: the locale the promotion notice's amount is formatted in.
    public init(
        lines: [BasketLine], price: PriceBreakdown, promotion: Promotion?, quotes: [PaymentQuote], locale: Locale
    ) throws(MoneyError) {
        var items: [BasketItemBody] = []
        items.reserveCapacity(lines.count)
        for line in lines { items.append(try BasketItemBody(line)) }
        self.init(
            items: items, subtotal: price.subtotal, discount: price.discount, shipping: price.shipping,
            total: price.total, amountToFreeShipping: price.amountToFreeShipping,
            promotion: promotion.map(PromotionBody.init), promoNotice: price.promotionNotice?.message(locale: locale),
            tier: price.tier, paymentOptions: quotes.map(PaymentOptionBody.init))
    }
}

/// One basket line.
public typealias BasketItemBody = LineItemBody

/// A line of a basket or of an order: `product_id`, `title`, `unit_price`, `quantity`,
/// `line_total` (docs/BEHAVIOUR.md §9 gives both the same shape).
public struct LineItemBody: Codable, Hashable, Sendable {
    public var productID: Int64
    public var title: String
    public var unitPrice: Money
    public var quantity: Int
    public var lineTotal: Money

    private enum CodingKeys: String, CodingKey {
        case productID = "product_id"
        case title
        case unitPrice = "unit_price"
        case quantity
        case lineTotal = "line_total"
    }

    public init(productID: Int64, title: String, unitPrice: Money, quantity: Int, lineTotal: Money) {
        self.productID = productID
        self.title = title
        self.unitPrice = unitPrice
        self.quantity = quantity
        self.lineTotal = lineTotal
    }

    public init(_ line: BasketLine) throws(MoneyError) {
        self.init(
            productID: line.productID.rawValue, title: line.title, unitPrice: line.unitPrice,
            quantity: line.quantity.value, lineTotal: try line.total())
    }
}

/// A payment method on offer, with what it costs.
public struct PaymentOptionBody: Codable, Hashable, Sendable {
    /// `card`, `payment_link` or `qr_code`.
    public var type: String
    public var fee: Money
    public var amountDue: Money

    private enum CodingKeys: String, CodingKey {
        case type
        case fee
        case amountDue = "amount_due"
    }

    public init(type: String, fee: Money, amountDue: Money) {
        self.type = type
        self.fee = fee
        self.amountDue = amountDue
    }

    public init(_ quote: PaymentQuote) {
        self.init(type: quote.kind.rawValue, fee: quote.fee, amountDue: quote.amountDue)
    }
}

extension Tier: Codable {}

extension PaymentQuote {
    /// The quote `body` describes, or `nil` for a method this client does not know.
    public init?(_ body: PaymentOptionBody) {
        guard let kind = PaymentMethod.Kind(rawValue: body.type) else { return nil }
        self.init(kind: kind, fee: body.fee, amountDue: body.amountDue)
    }
}
