import CheckoutKit
import HTML

extension StorePages {
    /// The first step of checkout at `/checkout`: the method as radio buttons **Card**,
    /// **Payment link**, **QR code**, each with its fee; the test cards by name; **Continue**
    /// (a GET form to the review page). Shows why the last payment failed, if it did.
    public static func checkout(_ page: CheckoutPage, context: PageContext) -> HTMLDocument {
        PageLayout.document(
            title: "Checkout", context: context, section: .basket,
            .h1("Checkout"),
            page.problem.map { ProblemNotice.view($0, context: context) } ?? .empty,
            .div(
                [.class("columns")],
                .form(
                    [.method(.get), .action(StorePaths.checkoutReview), .class("method-form")],
                    .fieldset(
                        [.class("methods")],
                        .legend([], "Payment method"),
                        .fragment(page.options.map { method($0, page: page, context: context) })),
                    Forms.submit("Continue", style: .primary)),
                .section(
                    [.class("summary"), .ariaLabelledBy("summary-title")],
                    .h2([.id("summary-title")], "Order summary"),
                    LineSummary.view(page.lines, context: context),
                    TotalsTable.basket(page.totals, context: context),
                    .p([], .a([.href(StorePaths.basket)], "Change your basket")))))
    }

    private static func method(_ option: PaymentQuote, page: CheckoutPage, context: PageContext) -> Node {
        let id = "method-\(option.kind.rawValue)"
        let fee = option.fee.isZero ? "No fee" : "Fee \(context.money(option.fee))"
        return .div(
            [.class("method-option")],
            .div(
                [.class("choice")],
                .input([
                    .type("radio"), .id(id), .name(FormFields.method), .value(option.kind.rawValue),
                    .checked(option.kind == page.selectedMethod), .required(), .ariaDescribedBy("\(id)-fee"),
                ]),
                .label([.for(id)], option.kind.displayName),
                .span([.id("\(id)-fee"), .class("fee")], "\(fee) · you pay \(context.money(option.amountDue))")),
            option.kind == .card ? cardChoice(page) : .empty)
    }

    /// The test cards as a menu: "Visa — approved (tok_visa)". Never a card-number field.
    private static func cardChoice(_ page: CheckoutPage) -> Node {
        .div(
            [.class("field card-field")],
            .label([.for("card")], "Test card"),
            .select(
                [.id("card"), .name(FormFields.card), .ariaDescribedBy("card-hint")],
                .fragment(
                    page.testCards.map { card in
                        .option([.value(card.token), .selected(card.token == page.selectedCard)], card.menuLabel)
                    })),
            .p([.id("card-hint"), .class("hint")], "Used when you pay by card. No card number is ever asked for."))
    }
}
