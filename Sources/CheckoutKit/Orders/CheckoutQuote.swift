/// A basket priced for one payment method: what the order will be and what will be charged.
///
/// The server builds a quote from the *stored* basket and current prices — it is the authority on
/// price — and then checks it against the total the shopper confirmed with ``confirm(expectedTotal:)``.
public struct CheckoutQuote: Hashable, Sendable {
    public let lines: [BasketLine]
    public let breakdown: PriceBreakdown
    public let method: PaymentMethod
    /// The method's fee and the amount due (order total + fee).
    public let payment: PaymentQuote

    /// Prices `lines` and adds the fee of `method` under `fees`.
    public init(
        lines: [BasketLine], promotion: Promotion?, tier: Tier, shipping: ShippingPolicy, fees: FeePolicy,
        method: PaymentMethod
    ) throws(MoneyError) {
        self.lines = lines
        self.breakdown = try Pricing.price(lines, promotion: promotion, tier: tier, shipping: shipping)
        self.method = method
        self.payment = try fees.quote(for: method.kind, total: breakdown.total)
    }

    /// The amount the provider will be asked to charge.
    public var amountDue: Money { payment.amountDue }

    /// Checks that this quote is what the shopper agreed to pay.
    ///
    /// - Parameter expectedTotal: the basket `total` the shopper saw (before the payment fee).
    /// - Throws: ``CheckoutError/emptyBasket``; ``CheckoutError/invalidAmount`` when the confirmed
    ///   total or the amount due is not above zero; ``CheckoutError/priceChanged(expected:actual:)``
    ///   when the confirmed total differs from the server's (in amount or currency).
    public func confirm(expectedTotal: Money) throws(CheckoutError) {
        guard expectedTotal.isPositive else { throw .invalidAmount }
        guard !lines.isEmpty else { throw .emptyBasket }
        guard expectedTotal == breakdown.total else {
            throw .priceChanged(expected: expectedTotal, actual: breakdown.total)
        }
        guard amountDue.isPositive else { throw .invalidAmount }
    }
}
