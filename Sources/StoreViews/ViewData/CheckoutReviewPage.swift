import CheckoutKit

/// The last step of checkout at `/checkout/review`: the order with the chosen method's fee, and
/// the **Pay €X.XX** button.
///
/// The form carries the idempotency key minted when this page was shown, so a double click or a
/// resubmitted form charges once. After an `unavailable` answer the page is shown again with the
/// *same* key, so paying again settles the first attempt instead of starting a second.
public struct CheckoutReviewPage: Hashable, Sendable {
    public var lines: [BasketLineItem]
    public var totals: BasketTotals
    /// The chosen method, its fee and the amount due.
    public var option: PaymentQuote
    /// The chosen test card, for a card payment.
    public var card: TestCard?
    /// The key of this payment attempt, sent as the hidden `idempotency_key` field.
    public var idempotencyKey: String
    /// Why the last try did not go through, if it did not.
    public var problem: CheckoutProblem?

    public init(
        lines: [BasketLineItem], totals: BasketTotals, option: PaymentQuote, card: TestCard? = nil,
        idempotencyKey: String, problem: CheckoutProblem? = nil
    ) {
        self.lines = lines
        self.totals = totals
        self.option = option
        self.card = card
        self.idempotencyKey = idempotencyKey
        self.problem = problem
    }
}
