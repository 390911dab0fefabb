import CheckoutKit

/// One way to pay, with what it costs: the fee and the amount due (order total + fee).
public struct PaymentOption: Hashable, Sendable {
    public var method: PaymentMethod.Kind
    public var fee: Money
    public var amountDue: Money

    public init(method: PaymentMethod.Kind, fee: Money, amountDue: Money) {
        self.method = method
        self.fee = fee
        self.amountDue = amountDue
    }

    /// The option for a fee policy's quote.
    public init(_ quote: PaymentQuote) {
        self.init(method: quote.kind, fee: quote.fee, amountDue: quote.amountDue)
    }
}
