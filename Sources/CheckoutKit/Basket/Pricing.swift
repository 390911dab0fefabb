/// What a basket costs, line by line rules applied (docs/BEHAVIOUR.md §3–§4).
public struct PriceBreakdown: Hashable, Sendable {
    /// Σ unit price × quantity.
    public let subtotal: Money
    /// What the promotion takes off the items (zero without one, or below its minimum).
    public let discount: Money
    public let shipping: Money
    /// subtotal − discount + shipping, before any payment fee.
    public let total: Money
    /// How much more buys free shipping; `nil` when shipping is already free.
    public let amountToFreeShipping: Money?
    /// The promotion that was considered, if any (it may still give no discount below its minimum).
    public let promotionCode: PromotionCode?
    /// "Add €X more to use CODE." while the subtotal is below the promotion's minimum.
    public let promotionNotice: PromotionNotice?
    public let tier: Tier
}

/// The one place basket prices are worked out. The server, the app models and the benchmarks all
/// call this; there is no second copy of a pricing rule.
public enum Pricing {
    /// Prices `lines` with an optional, already validated `promotion`, for a shopper of `tier`.
    ///
    /// - subtotal = Σ unit price × quantity;
    /// - discount = the promotion's discount on the subtotal: never below zero, never above the
    ///   subtotal, never off shipping;
    /// - shipping looks at the subtotal *before* the discount;
    /// - total = subtotal − discount + shipping.
    ///
    /// - Throws: ``MoneyError/currencyMismatch(_:_:)`` when a line or the promotion is in another
    ///   currency than the shipping policy; ``MoneyError/overflow`` for amounts out of range.
    public static func price(
        _ lines: [BasketLine], promotion: Promotion?, tier: Tier, shipping policy: ShippingPolicy
    ) throws(MoneyError) -> PriceBreakdown {
        let currency = policy.currency
        var subtotal = Money.zero(currency)
        for line in lines {
            subtotal = try subtotal + line.total()
        }
        let isEmpty = lines.isEmpty
        let discount = try promotion?.discount(on: subtotal) ?? .zero(currency)
        let shipping = try policy.shipping(subtotal: subtotal, isEmpty: isEmpty, tier: tier)
        let total = try subtotal - discount + shipping
        return PriceBreakdown(
            subtotal: subtotal,
            discount: discount,
            shipping: shipping,
            total: total,
            amountToFreeShipping: try policy.amountToFreeShipping(subtotal: subtotal, isEmpty: isEmpty, tier: tier),
            promotionCode: promotion?.code,
            promotionNotice: isEmpty ? nil : try promotion?.notice(for: subtotal),
            tier: tier)
    }
}
