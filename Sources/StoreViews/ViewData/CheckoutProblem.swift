import CheckoutKit

/// Why a payment did not end in an order, as the checkout pages explain it (docs/BEHAVIOUR.md §5, §9).
public enum CheckoutProblem: Hashable, Sendable {
    /// A product that cannot be supplied in the quantity asked, by name.
    public struct ShortLine: Hashable, Sendable {
        public var title: String
        /// Units still available (0 when sold out).
        public var available: Int

        public init(title: String, available: Int) {
            self.title = title
            self.available = available
        }
    }

    /// The bank declined; the provider's reason is shown and the basket is kept.
    case declined(DeclineReason)
    /// The payment could not be confirmed; retrying is safe (with the same key).
    case unavailable
    /// The basket's total changed since the page was shown; nothing was charged.
    case priceChanged(previousTotal: Money, newTotal: Money)
    /// Some lines cannot be supplied; nothing was charged.
    case soldOut([ShortLine])
    /// An earlier payment of this basket is still being settled; nothing new was charged.
    case paymentInProgress

    /// The notice's heading.
    var title: String {
        switch self {
        case .declined: "Payment declined"
        case .unavailable: "Payment not confirmed"
        case .priceChanged: "The price has changed"
        case .soldOut: "Not enough stock"
        case .paymentInProgress: "Payment in progress"
        }
    }

    /// The notice's message, in the words CheckoutKit uses for the same failure.
    var message: String {
        switch self {
        case .declined(let reason):
            CheckoutError.declined(reason).message + " Your basket is kept: try another card or payment method."
        case .unavailable:
            CheckoutError.unavailable.message
        case .priceChanged(let previousTotal, let newTotal):
            CheckoutError.priceChanged(expected: previousTotal, actual: newTotal).message
        case .soldOut:
            CheckoutError.outOfStock([]).message
        case .paymentInProgress:
            "An earlier payment for this basket is still being confirmed. "
                + "Check your orders in a moment — you won't be charged twice."
        }
    }
}
