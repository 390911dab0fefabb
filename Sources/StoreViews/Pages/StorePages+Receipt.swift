import CheckoutKit
import HTML

extension StorePages {
    /// An order's receipt at `/orders/{id}`: the lines at the prices charged, subtotal, discount,
    /// shipping, payment fee, total charged, the method and the time; the payment's status and, once
    /// money went back, each refund and what was refunded in all.
    public static func receipt(_ receipt: OrderReceipt, context: PageContext) -> HTMLDocument {
        PageLayout.document(
            title: "Receipt", context: context, section: .orders,
            .h1("Receipt"),
            .div(
                [.class("receipt")],
                facts(receipt, context: context),
                .section(
                    [.class("receipt-items"), .ariaLabelledBy("items-title")],
                    .h2([.id("items-title")], "Items"),
                    .table(
                        [.class("lines")],
                        .thead(
                            .tr(
                                [],
                                .th([.scope("col")], "Item"),
                                .th([.scope("col"), .class("number")], "Price"),
                                .th([.scope("col"), .class("number")], "Qty"),
                                .th([.scope("col"), .class("number")], "Total"))),
                        .tbody(.fragment(receipt.lines.map { line($0, context: context) })))),
                .section(
                    [.class("receipt-totals"), .ariaLabelledBy("totals-title")],
                    .h2([.id("totals-title")], "Totals"),
                    TotalsTable.receipt(receipt, context: context)),
                refunds(receipt, context: context),
                .p(
                    [.class("actions")],
                    .a([.href(StorePaths.orders)], "All your orders"),
                    .text(" · "),
                    .a([.href(StorePaths.catalog)], "Continue shopping"))))
    }

    /// The order number, when it was placed, how it was paid, and its status.
    private static func facts(_ receipt: OrderReceipt, context: PageContext) -> Node {
        let method =
            receipt.cardBrand.map { "\(receipt.method.displayName) (\(context.displayName($0)))" }
            ?? receipt.method.displayName
        return .dl(
            [.class("facts")],
            .dt("Order number"),
            .dd([], .span([.class("order-id")], receipt.id)),
            .dt("Placed"),
            .dd([], .time([.datetime(context.isoDateTime(receipt.placedAt))], context.dateTime(receipt.placedAt))),
            .dt("Paid with"),
            .dd(method),
            .dt("Payment"),
            .dd([], statusBadge(receipt.paymentStatus)))
    }

    /// Each refund — what it gave back, for which units, when — and what went back in all; nothing
    /// before the first refund.
    private static func refunds(_ receipt: OrderReceipt, context: PageContext) -> Node {
        guard !receipt.refunds.isEmpty else { return .fragment([]) }
        var summary: [Node] = [
            .text("Refunded in all: "), .strong(context.money(receipt.refunded)),
            .text(" of \(context.money(receipt.total))"),
        ]
        if let pending = receipt.pending { summary.append(.text(" · \(context.money(pending)) on its way")) }
        return .section(
            [.class("receipt-refunds"), .ariaLabelledBy("refunds-title")],
            .h2([.id("refunds-title")], "Refunds"),
            .p([.class("refunded-total")], .fragment(summary)),
            .p([.class("hint")], "Refunds go back the way you paid."),
            .ol([.class("refund-list")], .fragment(receipt.refunds.map { refund($0, context: context) })))
    }

    private static func refund(_ refund: OrderReceipt.Refund, context: PageContext) -> Node {
        let amount = context.money(refund.amount)
        let when = Node.time([.datetime(context.isoDateTime(refund.date))], context.dateTime(refund.date))
        let headline: Node =
            switch refund.state {
            case .pending: .fragment([.text("Refund of \(amount) pending since "), when])
            case .succeeded, .failed: .fragment([.text("Refunded \(amount) on "), when])
            }
        var parts: [(String, Money)] = refund.lines.map { ("\($0.title) × \($0.quantity)", $0.amount) }
        if !refund.shipping.isZero { parts.append(("Shipping", refund.shipping)) }
        if !refund.fee.isZero { parts.append(("Payment fee", refund.fee)) }
        if parts.isEmpty { parts.append((refund.kind == .goodwill ? "Goodwill refund" : "Refund", refund.amount)) }
        return .li(
            [.class(refund.state == .pending ? "refund refund-pending" : "refund")],
            .h3([], headline),
            refund.kind == .cancellation ? .p([.class("hint")], "Order cancelled") : .fragment([]),
            .ul(
                [.class("summary-lines")],
                .fragment(
                    parts.map { label, amount in
                        .li([], .span([], label), .span([.class("line-amount")], context.money(amount)))
                    })))
    }

    private static func line(_ line: OrderReceipt.Line, context: PageContext) -> Node {
        .tr(
            [],
            .th([.scope("row")], line.title),
            .td([.class("number")], context.money(line.unitPrice)),
            .td([.class("number")], String(line.quantity)),
            .td([.class("number")], context.money(line.lineTotal)))
    }

    /// "Paid", "Partially refunded" or "Refunded" as a small badge.
    static func statusBadge(_ status: PaymentStatus) -> Node {
        switch status {
        case .paid: .span([.class("badge badge-paid")], status.label)
        case .partiallyRefunded: .span([.class("badge badge-partial")], status.label)
        case .refunded: .span([.class("badge")], status.label)
        }
    }
}
