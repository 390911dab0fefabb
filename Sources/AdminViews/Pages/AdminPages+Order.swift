import CheckoutKit
import HTML

extension AdminPages {
    /// One order at `/admin/orders/{id}`: its lines, amounts, payment, customer and fulfilment; the
    /// actions its state allows (**Mark packed**, **Mark shipped** with **Tracking number**, **Mark
    /// delivered**, **Cancel order**, the **Refund** link), each form carrying the state the page
    /// showed; the timeline and the refunds.
    public static func order(_ page: AdminOrderPage, context: AdminContext) -> HTMLDocument {
        AdminLayout.document(
            title: "Order \(page.id)", context: context, section: .orders,
            .p([.class("breadcrumb")], .a([.href(AdminPaths.orders)], "Orders")),
            .h1([], .text("Order "), .span([.class("order-id")], page.id)),
            AdminForms.errorSummary(
                id: "problems", page.trackingNumberError.map { [("tracking-number", $0)] } ?? []),
            facts(page, context: context),
            .div(
                [.class("order-layout")],
                .div(
                    [.class("order-main")],
                    lines(page, context: context),
                    amounts(page, context: context),
                    refunds(page, context: context),
                    timeline(page, context: context)),
                .div(
                    [.class("order-side")],
                    actions(page, context: context),
                    payment(page, context: context))))
    }

    private static func facts(_ page: AdminOrderPage, context: AdminContext) -> Node {
        let customer: Node =
            page.customer.map { customer in
                context.sections.contains(.customers)
                    ? .a([.href(AdminPaths.customer(customer.id))], customer.email) : .text(customer.email)
            } ?? .text("Guest")
        return .dl(
            [.class("facts")],
            .div([], .dt("Placed"), .dd([], context.time(page.placedAt))),
            .div([], .dt("Customer"), .dd([], customer)),
            .div([], .dt("Payment"), .dd([], AdminTables.badge(page.payment.status))),
            .div([], .dt("Fulfilment"), .dd([], AdminTables.badge(page.fulfilment))),
            page.trackingNumber.map { number in
                .div([], .dt("Tracking number"), .dd([], .span([.class("tracking")], number)))
            } ?? .empty)
    }

    private static func lines(_ page: AdminOrderPage, context: AdminContext) -> Node {
        let mayOpenProducts = context.sections.contains(.products)
        return AdminTables.table(
            id: "order-lines", caption: "Items",
            columns: [
                .init("Item"), .init("Unit price", number: true), .init("Quantity", number: true),
                .init("Line total", number: true),
            ],
            rows: page.lines.map { line in
                AdminTables.Row(
                    [],
                    .heading(
                        line.productID.map { id in
                            mayOpenProducts ? .a([.href(AdminPaths.product(id))], line.title) : .text(line.title)
                        } ?? .text(line.title)),
                    .init(context.money(line.unitPrice)),
                    .init(context.number(line.quantity)),
                    .init(context.money(line.lineTotal)))
            })
    }

    private static func amounts(_ page: AdminOrderPage, context: AdminContext) -> Node {
        let amounts = page.amounts
        let discountLabel = amounts.promotionCode.map { "Discount (\($0))" } ?? "Discount"
        let rows: [(String, String)] = [
            ("Subtotal", context.money(amounts.subtotal)),
            (discountLabel, context.deduction(amounts.discount)),
            ("Shipping", context.money(amounts.shipping)),
            ("Payment fee", context.money(amounts.fee)),
            ("Total charged", context.money(amounts.total)),
        ]
        return .section(
            [.class("panel"), .ariaLabelledBy("amounts-title")],
            .h2([.id("amounts-title")], "Amounts"),
            keyValueTable(id: "order-amounts", caption: "Amounts", rows, lastIsTotal: true))
    }

    private static func payment(_ page: AdminOrderPage, context: AdminContext) -> Node {
        let payment = page.payment
        let rows: [(String, String)] =
            [
                ("Method", payment.methodText),
                ("Status", payment.status.label),
                ("Paid", context.money(payment.paid)),
                ("Refunded so far", context.money(payment.refunded)),
            ]
            + (payment.pending.isPositive ? [("Refunds pending", context.money(payment.pending))] : [])
            + [("Remaining", context.money(payment.remaining))]
        return .section(
            [.class("panel"), .ariaLabelledBy("payment-title")],
            .h2([.id("payment-title")], "Payment"),
            keyValueTable(id: "payment", caption: "Payment", rows, lastIsTotal: true))
    }

    /// A table of labelled amounts: a header cell per row, the value right-aligned. It stands in a
    /// panel whose heading names it for the eye; its caption, the same words, names it for screen
    /// readers.
    static func keyValueTable(id: String, caption: String, _ rows: [(String, String)], lastIsTotal: Bool) -> Node {
        .table(
            [.id(id), .class("totals")],
            .caption([.class("visually-hidden")], caption),
            .tbody(
                .fragment(
                    rows.enumerated().map { index, row in
                        .tr(
                            lastIsTotal && index == rows.count - 1 ? [.class("total")] : [],
                            .th([.scope("row")], row.0),
                            .td([.class("number")], row.1))
                    })))
    }

    // MARK: Actions

    private static func actions(_ page: AdminOrderPage, context: AdminContext) -> Node {
        let actions = page.actions
        guard !actions.isEmpty else {
            return .section(
                [.class("panel actions-panel"), .ariaLabelledBy("actions-title")],
                .h2([.id("actions-title")], "Actions"),
                .p(
                    [.class("quiet")],
                    "Nothing more can be done with this order: it is \(page.fulfilment.label.lowercased()).")
            )
        }
        let current = AdminForms.hidden(AdminFormFields.currentStatus, page.fulfilment.rawValue)
        func move(to status: FulfilmentStatus, _ label: String, _ extra: Node = .empty) -> Node {
            AdminForms.post(
                AdminPaths.orderFulfilment(page.id), context: context, class: "action-form",
                current,
                AdminForms.hidden(AdminFormFields.status, status.rawValue),
                extra,
                AdminForms.submit(label, style: .primary))
        }
        let tracking = AdminForms.input(
            AdminForms.Field(
                id: "tracking-number", name: AdminFormFields.trackingNumber, label: "Tracking number",
                hint: "As the carrier prints it.", error: page.trackingNumberError),
            value: page.trackingNumberInput,
            [.maxlength(64), .autocomplete("off"), .spellcheck(false), .autocapitalize("characters")])
        return .section(
            [.class("panel actions-panel"), .ariaLabelledBy("actions-title")],
            .h2([.id("actions-title")], "Actions"),
            actions.markPacked ? move(to: .packed, "Mark packed") : .empty,
            actions.markShipped ? move(to: .shipped, "Mark shipped", tracking) : .empty,
            actions.markDelivered ? move(to: .delivered, "Mark delivered") : .empty,
            actions.refund
                ? .p([.class("action-form")], AdminForms.buttonLink("Refund", href: AdminPaths.refund(page.id)))
                : .empty,
            actions.cancel.map { cancellation in
                AdminForms.post(
                    AdminPaths.cancelOrder(page.id), context: context, class: "action-form cancel-form",
                    current,
                    AdminForms.hidden(AdminFormFields.idempotencyKey, cancellation.idempotencyKey),
                    .p([.id("cancel-summary")], .text(cancelSentence(cancellation, page: page, context: context))),
                    AdminForms.submit("Cancel order", style: .danger, describedBy: "cancel-summary"))
            } ?? .empty)
    }

    /// What **Cancel order** does, in one sentence.
    private static func cancelSentence(
        _ cancellation: AdminOrderPage.Cancellation, page: AdminOrderPage, context: AdminContext
    ) -> String {
        let payment = page.payment
        let method =
            switch payment.method {
            case .card: payment.cardBrand.map { "card (\(AdminOrderPage.Payment.brandName($0)))" } ?? "card"
            case .paymentLink: "payment link"
            case .qrCode: "QR code payment"
            }
        let refund =
            cancellation.refund.isPositive
            ? "refunds \(context.money(cancellation.refund)) to the customer's \(method)"
            : "refunds nothing more (everything paid is refunded already)"
        let code = page.amounts.promotionCode.map { ", gives back the use of code \($0)" } ?? ""
        return "Cancelling \(refund), puts the items back in stock\(code). It cannot be undone."
    }

    // MARK: Timeline and refunds

    private static func timeline(_ page: AdminOrderPage, context: AdminContext) -> Node {
        .section(
            [.class("panel"), .ariaLabelledBy("timeline-title")],
            .h2([.id("timeline-title")], "Timeline"),
            page.timeline.isEmpty
                ? .p([.class("quiet")], "Nothing has happened yet.")
                : .ol(
                    [.class("timeline")],
                    .fragment(
                        page.timeline.map { entry in
                            .li(
                                [],
                                .strong(eventText(entry.event, context: context)),
                                .text(" "),
                                .span(
                                    [.class("timeline-meta")], .text("by \(entry.actor.name), "), context.time(entry.at)
                                ))
                        })))
    }

    private static func eventText(_ event: AdminOrderPage.Event, context: AdminContext) -> String {
        switch event {
        case .paid(let amount): "Paid \(context.money(amount))"
        case .packed: "Packed"
        case .shipped(let tracking?): "Shipped (tracking \(tracking))"
        case .shipped(nil): "Shipped"
        case .delivered: "Delivered"
        case .refundRequested(let amount?): "Refund of \(context.money(amount)) asked for"
        case .refundRequested(nil): "Refund asked for"
        case .refunded(let amount?): "Refunded \(context.money(amount))"
        case .refunded(nil): "Refunded"
        case .refundFailed(let reason?): "Refund refused by the payment provider (\(reason))"
        case .refundFailed(nil): "Refund refused by the payment provider"
        case .refundWithdrawn: "Refund withdrawn: it never reached the payment provider"
        case .cancelled: "Cancelled"
        }
    }

    private static func refunds(_ page: AdminOrderPage, context: AdminContext) -> Node {
        guard !page.refunds.isEmpty else { return .empty }
        return AdminTables.table(
            id: "refunds", caption: "Refunds (times in \(context.zoneName))",
            columns: [
                .init("Amount", number: true), .init("What"), .init("Status"), .init("Reason"), .init("Asked for by"),
            ],
            rows: page.refunds.map { refund in
                AdminTables.Row(
                    [],
                    .init(context.money(refund.amount)),
                    .init(refundContents(refund, context: context)),
                    .init(
                        .fragment(
                            AdminTables.badge(refund.status),
                            refund.failure.map { .span([.class("refund-failure")], .code([], $0)) } ?? .empty)),
                    .init(
                        .fragment(
                            .text(refund.reason),
                            refund.note.map { .span([.class("refund-note")], $0) } ?? .empty),
                        class: "prose"),
                    .init(
                        .fragment(
                            .text(refund.by),
                            .span([.class("refund-by")], context.time(refund.at, short: true))),
                        class: "refund-asker"))
            },
            class: "refunds-table")
    }

    /// What a refund gave back: its units line by line, the shipping and the fee, or goodwill.
    private static func refundContents(_ refund: AdminOrderPage.Refund, context: AdminContext) -> Node {
        var items: [String] = refund.lines.map { line in
            "\(context.number(line.quantity)) × \(line.title)" + (line.restock ? " (restocked)" : "")
        }
        if refund.shipping { items.append("Shipping") }
        if refund.fee { items.append("Payment fee") }
        if refund.kind == .goodwill { items.append("Goodwill") }
        if refund.kind == .cancellation && items.isEmpty { items.append("What remained") }
        return .ul([.class("refund-items")], .fragment(items.map { .li($0) }))
    }
}
