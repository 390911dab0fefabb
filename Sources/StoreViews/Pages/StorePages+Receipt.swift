import CheckoutKit
import HTML

extension StorePages {
    /// An order's receipt at `/orders/{id}`: the lines at the prices charged, subtotal, discount,
    /// shipping, payment fee, total charged, the method and the time.
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
            .dt("Status"),
            .dd([], statusBadge(receipt.status)))
    }

    private static func line(_ line: OrderReceipt.Line, context: PageContext) -> Node {
        .tr(
            [],
            .th([.scope("row")], line.title),
            .td([.class("number")], context.money(line.unitPrice)),
            .td([.class("number")], String(line.quantity)),
            .td([.class("number")], context.money(line.lineTotal)))
    }

    /// "Paid" or "Refunded" as a small badge.
    static func statusBadge(_ status: OrderStatus) -> Node {
        switch status {
        case .paid: .span([.class("badge badge-paid")], "Paid")
        case .refunded: .span([.class("badge")], "Refunded")
        }
    }
}
