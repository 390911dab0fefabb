import CheckoutKit
import StoreAPI

/// A payment method on offer for the basket, with its fee and the amount due (total + fee), as
/// the server quoted them.
public struct PaymentOption: Hashable, Sendable {
    public var kind: PaymentMethod.Kind
    public var fee: Money
    public var amountDue: Money

    public init(kind: PaymentMethod.Kind, fee: Money, amountDue: Money) {
        self.kind = kind
        self.fee = fee
        self.amountDue = amountDue
    }

    /// The option `body` describes, or `nil` for a method this app does not know.
    init?(_ body: PaymentOptionBody) {
        guard let kind = PaymentMethod.Kind(rawValue: body.type) else { return nil }
        self.init(kind: kind, fee: body.fee, amountDue: body.amountDue)
    }

    /// "Card", "Payment link", "QR code".
    public var name: String { kind.displayName }
}
