/// The store's shipping rule: a flat fee, waived from a subtotal threshold and for Pro members.
public struct ShippingPolicy: Hashable, Sendable {
    /// From this subtotal (before any discount) shipping is free.
    public var freeShippingThreshold: Money
    /// What shipping costs below the threshold.
    public var fee: Money

    public init(freeShippingThreshold: Money, fee: Money) {
        self.freeShippingThreshold = freeShippingThreshold
        self.fee = fee
    }

    /// The default: free from €50.00, otherwise €4.95.
    public static let standard = ShippingPolicy(
        freeShippingThreshold: Money(minorUnits: 50_00, currency: .eur), fee: Money(minorUnits: 4_95, currency: .eur))

    /// The currency the policy is written in; a basket priced with it must use the same one.
    public var currency: Currency { fee.currency }

    /// What shipping costs for a basket with `subtotal` (before discount) (whether it has lines).
    ///
    /// Zero when the basket is empty, when the subtotal reaches the threshold, or for Pro members.
    public func shipping(subtotal: Money, isEmpty: Bool, tier: Tier) throws(MoneyError) -> Money {
        if isEmpty || tier == .pro { return .zero(fee.currency) }
        return try subtotal >= freeShippingThreshold ? .zero(fee.currency) : fee
    }

    /// How much more the shopper must add for free shipping, or `nil` when shipping is already
    /// free (an empty basket, a subtotal at the threshold, a Pro member).
    public func amountToFreeShipping(subtotal: Money, isEmpty: Bool, tier: Tier) throws(MoneyError) -> Money? {
        guard !isEmpty, tier != .pro, try subtotal < freeShippingThreshold else { return nil }
        return try freeShippingThreshold - subtotal
    }
}
