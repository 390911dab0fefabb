/// What each payment method costs the shopper on top of the order total (docs/BEHAVIOUR.md §5).
///
/// Injected as store configuration; ``standard`` is the published default. Fees are rounded by
/// ``RoundingRule/paymentFee`` (half to even) and are always in the amount's currency.
public struct FeePolicy: Hashable, Sendable {
    /// One method's fee.
    public enum Fee: Hashable, Sendable {
        case none
        case flat(Money)
        case percentage(Rate)
    }

    public var card: Fee
    public var paymentLink: Fee
    public var qrCode: Fee

    public init(card: Fee, paymentLink: Fee, qrCode: Fee) {
        self.card = card
        self.paymentLink = paymentLink
        self.qrCode = qrCode
    }

    /// Card 0.8 %, payment link €0.25 flat, QR code free.
    public static let standard = FeePolicy(
        card: .percentage(Rate(uncheckedBasisPoints: 80)),
        paymentLink: .flat(Money(minorUnits: 25, currency: .eur)),
        qrCode: .none)

    public func fee(for kind: PaymentMethod.Kind) -> Fee {
        switch kind {
        case .card: card
        case .paymentLink: paymentLink
        case .qrCode: qrCode
        }
    }

    /// The fee for paying `amount` with a method of `kind`.
    ///
    /// - Throws: ``MoneyError/currencyMismatch(_:_:)`` when a flat fee is in another currency.
    public func fee(for kind: PaymentMethod.Kind, on amount: Money) throws(MoneyError) -> Money {
        switch fee(for: kind) {
        case .none:
            return .zero(amount.currency)
        case .flat(let flat):
            guard flat.currency == amount.currency else { throw .currencyMismatch(amount.currency, flat.currency) }
            return flat
        case .percentage(let rate):
            return try amount.portion(rate, rounding: .paymentFee)
        }
    }

    /// The fee and the amount due for paying `total` with a method of `kind`.
    public func quote(for kind: PaymentMethod.Kind, total: Money) throws(MoneyError) -> PaymentQuote {
        let fee = try fee(for: kind, on: total)
        return PaymentQuote(kind: kind, fee: fee, amountDue: try total + fee)
    }

    /// A quote for every method, in the order the store offers them.
    public func quotes(total: Money) throws(MoneyError) -> [PaymentQuote] {
        var quotes: [PaymentQuote] = []
        for kind in PaymentMethod.Kind.allCases { quotes.append(try quote(for: kind, total: total)) }
        return quotes
    }
}

/// What paying with one method comes to: the fee and the amount charged (order total + fee).
public struct PaymentQuote: Hashable, Sendable {
    public let kind: PaymentMethod.Kind
    public let fee: Money
    public let amountDue: Money

    public init(kind: PaymentMethod.Kind, fee: Money, amountDue: Money) {
        self.kind = kind
        self.fee = fee
        self.amountDue = amountDue
    }
}
