import CheckoutKit

/// The sentences about refunds that the JSON API and the back office's pages both say
/// (docs/BEHAVIOUR.md §14), written once.
enum RefundWording {
    static let linesOrAmount = "A refund is lines (and the shipping) or an amount of goodwill, not both."
    static let nothingSelected = "Choose at least one line, the shipping or an amount."
    static let shippingNotRefundable = "The shipping was free or is refunded already."
    static let nothingToRefund = "These lines were paid nothing: there is nothing to give back."
    static let noteTooLong = "A note is at most \(RefundReason.maximumNoteLength) characters."
    static let refused = "The payment provider refused the refund. Nothing was given back or restocked."
    static let unconfirmed = "We couldn't confirm the refund with the payment provider."
    static let neverTwice = "it will never be refunded twice."
    static let refundBeforeCancel =
        "A refund of this order is still being confirmed with the payment provider. Try again in a moment."

    /// More than remains, `remaining` written as the face writes money.
    static func exceedsRemaining(_ remaining: String) -> String {
        "That is more than remains to refund (\(remaining))."
    }

    /// Only an order not shipped yet can be cancelled.
    static func notCancellable(_ fulfilment: String) -> String {
        "This order is \(fulfilment): only an order not shipped yet can be cancelled."
    }
}
