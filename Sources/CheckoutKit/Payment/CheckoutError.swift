import Foundation

/// The reason a payment provider gave for declining a payment, e.g. `card_declined`.
public struct DeclineReason: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let cardDeclined = DeclineReason(rawValue: "card_declined")
    public static let insufficientFunds = DeclineReason(rawValue: "insufficient_funds")

    /// The reason as a sentence for people.
    public var explanation: String {
        switch self {
        case .cardDeclined: "The card was declined."
        case .insufficientFunds: "The card has insufficient funds."
        default: "No further reason was given."
        }
    }
}

/// Why a checkout did not end in a paid order, each with a message for people (docs/BEHAVIOUR.md §5).
public enum CheckoutError: Error, Hashable, Sendable {
    /// The amount to charge is zero or negative. Nothing was sent to the provider.
    case invalidAmount
    /// The provider declined the payment.
    case declined(DeclineReason)
    /// The payment could not be confirmed (provider down or its answer lost). Retrying with the
    /// same idempotency key is safe.
    case unavailable
    /// The basket's total on the server is not the total the shopper confirmed. Nothing charged.
    case priceChanged(expected: Money, actual: Money)
    /// A product cannot be supplied in the quantity asked. Nothing charged.
    case outOfStock([ProductID])
    /// Another payment for this basket, under another idempotency key, may still charge: one
    /// basket is paid at most once, so nothing was charged. Retrying the first payment settles it.
    case paymentInProgress
    /// The basket has no lines.
    case emptyBasket
    /// The basket's promotion code can no longer be used (expired or used up). Nothing charged.
    case promotionUnavailable(PromotionCode)
    /// The payment method is not one of card, payment link, QR code.
    case unknownPaymentMethod
    /// A card payment without a well-formed provider token.
    case invalidCardToken
    /// A request field held something that looks like a card number.
    case cardNumberRejected

    /// The snake_case code used as the error `type` in the API.
    public var code: String {
        switch self {
        case .invalidAmount: "invalid_amount"
        case .declined: "declined"
        case .unavailable: "unavailable"
        case .priceChanged: "price_changed"
        case .outOfStock: "out_of_stock"
        case .paymentInProgress: "payment_in_progress"
        case .emptyBasket: "empty_basket"
        case .promotionUnavailable: "promotion_unavailable"
        case .unknownPaymentMethod: "unknown_payment_method"
        case .invalidCardToken: "invalid_card_token"
        case .cardNumberRejected: "card_number_rejected"
        }
    }

    /// What to tell the shopper, in English.
    public var message: String {
        switch self {
        case .invalidAmount:
            "Enter an amount above zero."
        case .declined(let reason):
            "Your bank declined the payment. \(reason.explanation)"
        case .unavailable:
            "We couldn't confirm the payment. Retrying is safe — you won't be charged twice."
        case .priceChanged(_, let actual):
            "The price of your basket has changed to \(actual.formatted(locale: .messages)). "
                + "Please check it and confirm again. You have not been charged."
        case .outOfStock:
            "Sorry, part of your basket is no longer in stock. You have not been charged."
        case .paymentInProgress:
            "Your payment for this basket is still being confirmed. Retry that payment rather than starting "
                + "a new one — you won't be charged twice."
        case .emptyBasket:
            "Your basket is empty."
        case .promotionUnavailable(let code):
            "The code \(code.rawValue) can no longer be used. Remove it and try again. You have not been charged."
        case .unknownPaymentMethod:
            "Choose a payment method: card, payment link or QR code."
        case .invalidCardToken:
            "The card details could not be read. Please enter them again."
        case .cardNumberRejected:
            "Card numbers are never accepted here. Please pay through the secure card form."
        }
    }

    /// Whether trying again with the *same* idempotency key is the right next step: when the
    /// outcome is unknown, or another payment of the basket is still being confirmed (once it is,
    /// the same request meets the paid basket or goes ahead). Every other answer is final for its key.
    public var isRetryableWithSameKey: Bool {
        self == .unavailable || self == .paymentInProgress
    }
}

extension Locale {
    /// The locale of the store's English messages.
    static let messages = Locale(identifier: "en_US")
}
