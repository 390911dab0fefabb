import CheckoutKit

/// The first step of checkout at `/checkout`: choose how to pay, each method showing its fee;
/// **Continue** leads to the review page with the **Pay** button.
public struct CheckoutPage: Hashable, Sendable {
    public var lines: [BasketLineItem]
    public var totals: BasketTotals
    /// Every method the store offers, in its order, with its fee and amount due.
    public var options: [PaymentQuote]
    /// The method checked when the page opens.
    public var selectedMethod: PaymentMethod.Kind
    /// The cards offered for a card payment.
    public var testCards: [TestCard]
    /// The token of the card selected when the page opens.
    public var selectedCard: String
    /// Why the last payment did not go through, if it did not.
    public var problem: CheckoutProblem?

    public init(
        lines: [BasketLineItem], totals: BasketTotals, options: [PaymentQuote],
        selectedMethod: PaymentMethod.Kind = .card, testCards: [TestCard] = TestCard.sandbox,
        selectedCard: String? = nil, problem: CheckoutProblem? = nil
    ) {
        self.lines = lines
        self.totals = totals
        self.options = options
        self.selectedMethod = selectedMethod
        self.testCards = testCards
        self.selectedCard = selectedCard ?? testCards.first?.token ?? ""
        self.problem = problem
    }
}
