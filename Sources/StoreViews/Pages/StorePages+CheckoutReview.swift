import CheckoutKit
import HTML

extension StorePages {
    /// The review step at `/checkout/review`: the order with the chosen method's fee and the
    /// **Pay €X.XX** button, a POST form carrying the idempotency key and the total the shopper
    /// confirms. Shows why the last try failed, if it did.
    public static func checkoutReview(_ page: CheckoutReviewPage, context: PageContext) -> HTMLDocument {
        let option = page.option
        let methodText = page.card.map { "\(option.kind.displayName): \($0.menuLabel)" } ?? option.kind.displayName
        var payFields: [Node] = [
            Forms.hidden(FormFields.idempotencyKey, page.idempotencyKey),
            Forms.hidden(FormFields.method, option.kind.rawValue),
        ]
        if option.kind == .card, let card = page.card { payFields.append(Forms.hidden(FormFields.card, card.token)) }
        payFields.append(Forms.hidden(FormFields.expectedTotal, page.totals.total.amountText))
        return PageLayout.document(
            title: "Review and pay", context: context, section: .basket,
            .h1("Review and pay"),
            page.problem.map { ProblemNotice.view($0, context: context) } ?? .empty,
            .div(
                [.class("columns")],
                .section(
                    [.class("review"), .ariaLabelledBy("summary-title")],
                    .h2([.id("summary-title")], "Order summary"),
                    LineSummary.view(page.lines, context: context),
                    TotalsTable.payment(page.totals, option: option, context: context)),
                .section(
                    [.class("summary pay"), .ariaLabelledBy("payment-title")],
                    .h2([.id("payment-title")], "Payment"),
                    .p([.class("chosen-method")], methodText),
                    .p(
                        [],
                        .a(
                            [.href(StorePaths.checkout(method: option.kind, card: page.card?.token))],
                            "Change payment method")),
                    Forms.post(
                        StorePaths.pay, context: context, class: "pay-form",
                        .fragment(payFields),
                        Forms.submit("Pay \(context.money(option.amountDue))", style: .primary)),
                    .p(
                        [.class("hint")],
                        "Pressing Pay twice, or sending the form again, never charges you twice."))))
    }
}
