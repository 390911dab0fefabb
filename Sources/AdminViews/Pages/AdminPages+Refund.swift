import CheckoutKit
import HTML

extension AdminPages {
    /// The refund form of an order at `/admin/orders/{id}/refund` (docs/BEHAVIOUR.md §14): for each
    /// line its units to refund (from 0 to what it has left) and **Restock**, **Refund shipping**
    /// while it may be, or instead a goodwill **Amount**; a **Reason** and a **Note**. **Review
    /// refund** sends it by GET to the review, which shows the amount before anything is done;
    /// problems come back here, as typed, beside their fields.
    public static func refund(_ page: AdminRefundPage, context: AdminContext) -> HTMLDocument {
        let problems = page.problems
        return AdminLayout.document(
            title: problems.isEmpty ? "Refund order \(page.orderID)" : "Refund order \(page.orderID) (has problems)",
            context: context, section: .orders,
            .p([.class("breadcrumb")], .a([.href(AdminPaths.order(page.orderID))], "Order \(page.orderID)")),
            .h1([], .text("Refund order "), .span([.class("order-id")], page.orderID)),
            AdminForms.errorSummary(id: "problems", problems),
            .dl(
                [.class("facts")],
                .div([], .dt("Paid"), .dd([], .text(context.money(page.paid)))),
                .div([], .dt("Refunded so far"), .dd([], .text(context.money(page.refunded)))),
                .div([], .dt("Remaining"), .dd([], .strong(context.money(page.remaining))))),
            page.remaining.isPositive
                ? refundForm(page, context: context)
                : AdminTables.empty(
                    "Everything paid for this order is refunded already.",
                    .p([], AdminForms.buttonLink("Back to the order", href: AdminPaths.order(page.orderID)))))
    }

    private static func refundForm(_ page: AdminRefundPage, context: AdminContext) -> Node {
        let form = page.form
        return .form(
            [.method(.get), .action(AdminPaths.refundReview(page.orderID)), .class("panel refund-form")],
            refundItems(page, context: context),
            refundGoodwill(page, context: context),
            AdminForms.select(
                field(page, .reason, "Reason", required: true),
                options: AdminRefundForm.reasons.map { ($0.rawValue, $0.label) }, selected: form.reason?.rawValue,
                placeholder: "Choose a reason"),
            AdminForms.input(
                field(page, .note, "Note", hint: "Optional. Kept with the refund and in the audit log."),
                value: form.note, [.maxlength(RefundReason.maximumNoteLength), .autocomplete("off")]),
            .div(
                [.class("button-row")],
                AdminForms.submit("Review refund", style: .primary),
                AdminForms.buttonLink("Back to the order", href: AdminPaths.order(page.orderID))))
    }

    /// The review of a refund at `/admin/orders/{id}/refund/review`: what goes back, line by line,
    /// why and where to; **Refund €X.XX** posts it with the key minted for this review (the same
    /// form sent twice refunds once); **Change** goes back to the form as typed.
    public static func refundReview(_ review: AdminRefundReview, context: AdminContext) -> HTMLDocument {
        var rows: [(String, String)] = review.lines.map { line in
            (
                "\(context.number(line.quantity)) × \(line.title)"
                    + (line.restock ? ", back into stock" : ", not restocked"),
                context.money(line.amount)
            )
        }
        if review.shipping.isPositive { rows.append(("Shipping", context.money(review.shipping))) }
        if review.fee.isPositive { rows.append(("Payment fee (a full refund)", context.money(review.fee))) }
        if let goodwill = review.goodwill { rows.append(("Goodwill", context.money(goodwill))) }
        rows.append(("Refund", context.money(review.amount)))
        let reason = review.note.map { "\(review.reason.label): \($0)" } ?? review.reason.label
        let confirm = "Refund \(context.money(review.amount))"
        return AdminLayout.document(
            title: "Review refund of order \(review.orderID)", context: context, section: .orders,
            .p([.class("breadcrumb")], .a([.href(AdminPaths.order(review.orderID))], "Order \(review.orderID)")),
            .h1([], .text("Review the refund of order "), .span([.class("order-id")], review.orderID)),
            .div(
                [.class("refund-review")],
                .section(
                    [.class("panel"), .ariaLabelledBy("review-title")],
                    .h2([.id("review-title")], "What goes back"),
                    keyValueTable(id: "refund-amounts", caption: "What goes back", rows, lastIsTotal: true)),
                .dl(
                    [.class("facts")],
                    .div([], .dt("Reason"), .dd([], .text(reason))),
                    .div([], .dt("Back to"), .dd([], .text(review.paymentMethod))),
                    .div([], .dt("Remaining after this refund"), .dd([], .text(context.money(review.remainingAfter))))
                ),
                AdminForms.post(
                    AdminPaths.refund(review.orderID), context: context, class: "panel confirm-form",
                    AdminForms.hidden(AdminFormFields.idempotencyKey, review.idempotencyKey),
                    .fragment(review.form.parameters.map { AdminForms.hidden($0.0, $0.1) }),
                    .p(
                        [.id("confirm-hint"), .class("hint")],
                        "The payment provider is asked once: pressing again never refunds twice."),
                    .div(
                        [.class("button-row")],
                        AdminForms.submit(confirm, style: .primary, describedBy: "confirm-hint"),
                        AdminForms.buttonLink(
                            "Change", href: AdminPaths.refund(review.orderID, form: review.form))))))
    }

    // MARK: The form's parts

    private static func field(
        _ page: AdminRefundPage, _ field: AdminRefundForm.Field, _ label: String, hint: String? = nil,
        required: Bool = false
    ) -> AdminForms.Field {
        let id = page.fieldID(field)
        let name =
            switch field {
            case .quantity(let position): AdminFormFields.refundQuantity(position)
            case .items, .shipping: AdminFormFields.refundShipping
            case .amount: AdminFormFields.refundAmount
            case .reason: AdminFormFields.reason
            case .note: AdminFormFields.note
            }
        return AdminForms.Field(
            id: id, name: name, label: label, hint: hint, error: page.form.errors[field], isRequired: required)
    }

    /// Each line with its units and **Restock**, and **Refund shipping** while it may be.
    private static func refundItems(_ page: AdminRefundPage, context: AdminContext) -> Node {
        let form = page.form
        let itemsError = form.errors[.items]
        return .fieldset(
            [.class("refund-group"), .ariaDescribedBy(itemsError == nil ? "items-hint" : "items-hint items-error")],
            .legend([], "Items"),
            .p(
                [.id("items-hint"), .class("hint")],
                "How many units of each line to refund. Restocked units go back on sale."),
            itemsError.map { .p([.id("items-error"), .class("field-error")], $0) } ?? .empty,
            .fragment(
                page.lines.map { line in
                    let paid = "Paid \(context.money(line.paid)) for \(context.number(line.quantity))"
                    guard line.refundable > 0 else {
                        return .div(
                            [.class("refund-line refund-line-done")],
                            .p([.class("refund-line-title")], .strong(line.title)),
                            .p([.class("hint")], "\(paid). Refunded in full."))
                    }
                    let units = AdminForms.Field(
                        id: "quantity-\(line.position)", name: AdminFormFields.refundQuantity(line.position),
                        label: "Units to refund",
                        hint: "\(paid). \(context.number(line.refundable)) left to refund.",
                        error: form.errors[.quantity(line.position)])
                    return .fieldset(
                        [.class("refund-line")],
                        .legend([.class("refund-line-title")], line.title),
                        AdminForms.input(
                            units, type: "number", value: form.quantities[line.position] ?? "",
                            [
                                .min(0), .max(line.refundable), .step(1), .inputmode("numeric"),
                                .autocomplete("off"), .class("input-short"),
                            ]),
                        AdminForms.checkbox(
                            AdminForms.Field(
                                id: "restock-\(line.position)", name: AdminFormFields.refundRestock(line.position),
                                label: "Restock"),
                            checked: form.restock.contains(line.position)))
                }),
            page.refundableShipping.map { shipping in
                AdminForms.checkbox(
                    field(page, .shipping, "Refund shipping (\(context.money(shipping)))"), checked: form.shipping)
            } ?? (form.errors[.shipping].map { .p([.id("refund-shipping"), .class("field-error")], $0) } ?? .empty))
    }

    /// **Amount**: goodwill instead of items.
    private static func refundGoodwill(_ page: AdminRefundPage, context: AdminContext) -> Node {
        let example = ProductRules.example(page.remaining.currency)
        return .fieldset(
            [.class("refund-group")],
            .legend([], "Or goodwill"),
            AdminForms.input(
                field(
                    page, .amount, "Amount",
                    hint:
                        "Instead of items, in \(page.remaining.currency.code) like \(example): up to "
                        + "\(context.money(page.remaining)). Nothing goes back into stock."),
                value: page.form.amount, [.inputmode("decimal"), .autocomplete("off"), .class("input-short")]))
    }
}
