/// How the shopper pays: a closed set, so an unknown method can never slip through as "free".
public enum PaymentMethod: Hashable, Sendable {
    /// A card, represented only by the payment provider's token — never by a card number.
    case card(CardToken)
    case paymentLink
    case qrCode

    /// The method without its details, as fee policies and analytics see it.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case card
        case paymentLink = "payment_link"
        case qrCode = "qr_code"

        /// The kind named `name` on the wire (`card`, `payment_link`, `qr_code`).
        ///
        /// - Throws: ``CheckoutError/unknownPaymentMethod`` for any other name.
        public init(wireName name: String) throws(CheckoutError) {
            guard let kind = Kind(rawValue: name) else { throw .unknownPaymentMethod }
            self = kind
        }

        /// A name for people: "Card", "Payment link", "QR code".
        public var displayName: String {
            switch self {
            case .card: "Card"
            case .paymentLink: "Payment link"
            case .qrCode: "QR code"
            }
        }
    }

    public var kind: Kind {
        switch self {
        case .card: .card
        case .paymentLink: .paymentLink
        case .qrCode: .qrCode
        }
    }

    /// Builds a method from its wire name and, for cards, a token.
    ///
    /// - Throws: ``CheckoutError/unknownPaymentMethod`` for a name outside the set,
    ///   ``CheckoutError/invalidCardToken`` for a card without a well-formed token or a token with
    ///   a method that takes none, and ``CheckoutError/cardNumberRejected`` when the token looks
    ///   like a card number.
    public init(wireName name: String, token: String?) throws(CheckoutError) {
        let kind = try Kind(wireName: name)
        if kind == .card {
            guard let token else { throw .invalidCardToken }
            self = .card(try CardToken(token))
            return
        }
        // A token belongs to a card: sent with a method that takes none, it is a mistake the client
        // should hear of, not something to ignore (nor to tell retries apart by).
        guard token == nil else { throw .invalidCardToken }
        self = kind == .paymentLink ? .paymentLink : .qrCode
    }
}
