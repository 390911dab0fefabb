import CheckoutKit

/// A basket's sums as worked out by `CheckoutKit.Pricing`: subtotal, discount, shipping, total.
public struct BasketTotals: Hashable, Sendable {
    public var subtotal: Money
    /// What the promotion takes off the items; zero without one.
    public var discount: Money
    public var shipping: Money
    /// subtotal − discount + shipping, before any payment fee.
    public var total: Money
    /// How much more buys free shipping; `nil` when shipping is already free.
    public var amountToFreeShipping: Money?
    /// The code that gave the discount, shown beside it.
    public var promotionCode: String?
    /// Whether shipping is free because the customer is a Pro member.
    public var isProMember: Bool

    public init(
        subtotal: Money, discount: Money, shipping: Money, total: Money, amountToFreeShipping: Money? = nil,
        promotionCode: String? = nil, isProMember: Bool = false
    ) {
        self.subtotal = subtotal
        self.discount = discount
        self.shipping = shipping
        self.total = total
        self.amountToFreeShipping = amountToFreeShipping
        self.promotionCode = promotionCode
        self.isProMember = isProMember
    }

    /// The totals of a priced basket.
    public init(_ breakdown: PriceBreakdown) {
        self.init(
            subtotal: breakdown.subtotal, discount: breakdown.discount, shipping: breakdown.shipping,
            total: breakdown.total, amountToFreeShipping: breakdown.amountToFreeShipping,
            promotionCode: breakdown.discount.isZero ? nil : breakdown.promotionCode?.rawValue,
            isProMember: breakdown.tier == .pro)
    }
}
