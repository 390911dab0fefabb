import CheckoutKit
import HTML

/// The back office's tables, lists of pages and status badges.
enum AdminTables {
    /// A column heading; numbers and money are right-aligned.
    struct Column {
        let label: String
        var isNumber = false

        init(_ label: String, number: Bool = false) {
            self.label = label
            self.isNumber = number
        }
    }

    /// A table with a visible caption, inside a region that scrolls sideways on a narrow screen and
    /// can be reached and scrolled with the keyboard; the region is named by the caption.
    static func table(
        id: String, caption: String, columns: [Column], rows: [Node], class className: String = ""
    )
        -> Node
    {
        table(id: id, caption: .text(caption), columns: columns, rows: rows, class: className)
    }

    /// A table whose caption holds more than text.
    static func table(
        id: String, caption: Node, columns: [Column], rows: [Node], class className: String = ""
    )
        -> Node
    {
        let captionID = "\(id)-caption"
        return .div(
            [.class("table-wrap"), .role("region"), .ariaLabelledBy(captionID), .focusable],
            .table(
                [.id(id), .class(className.isEmpty ? "data" : "data \(className)")],
                .caption([.id(captionID)], caption),
                .thead(
                    .tr(
                        [],
                        .fragment(
                            columns.map { column in
                                .th(
                                    column.isNumber ? [.scope("col"), .class("number")] : [.scope("col")],
                                    column.label)
                            }))),
                .tbody(.fragment(rows))))
    }

    /// A cell holding a number or an amount.
    static func number(_ text: String) -> Node {
        .td([.class("number")], text)
    }

    /// "Previous" and "Next" around "Page 2 of 5"; nothing for a list that fits on one page.
    static func paging(_ paging: AdminPaging, label: String, path: (Int) -> String) -> Node {
        guard paging.pageCount > 1 else { return .empty }
        return .nav(
            [.class("paging"), .ariaLabel(label)],
            paging.hasPrevious
                ? .a([.href(path(paging.page - 1)), .rel("prev"), .class("button")], "Previous page")
                : .empty,
            .p([.class("page-number")], "Page \(paging.page) of \(paging.pageCount)"),
            paging.hasNext
                ? .a([.href(path(paging.page + 1)), .rel("next"), .class("button")], "Next page") : .empty)
    }

    /// "43 products" above a list.
    static func count(_ count: Int, _ singular: String, _ plural: String, context: AdminContext) -> Node {
        .p([.class("list-count")], "\(context.number(count)) \(count == 1 ? singular : plural)")
    }

    /// A list's empty state.
    static func empty(_ message: String, _ children: Node...) -> Node {
        .div([.class("empty-state")], .p(message), .fragment(children))
    }

    // MARK: Badges

    static func badge(_ text: String, tone: String) -> Node {
        .span([.class("badge badge-\(tone)")], text)
    }

    static func badge(_ status: AdminPaymentStatus) -> Node {
        switch status {
        case .paid: badge(status.label, tone: "good")
        case .partiallyRefunded: badge(status.label, tone: "warn")
        case .refunded: badge(status.label, tone: "muted")
        }
    }

    static func badge(_ status: FulfilmentStatus) -> Node {
        switch status {
        case .unfulfilled: badge(status.label, tone: "warn")
        case .packed: badge(status.label, tone: "info")
        case .shipped: badge(status.label, tone: "info")
        case .delivered: badge(status.label, tone: "good")
        case .cancelled: badge(status.label, tone: "muted")
        }
    }

    static func badge(_ status: AdminRefundStatus) -> Node {
        switch status {
        case .succeeded: badge(status.label, tone: "good")
        case .pending: badge(status.label, tone: "warn")
        case .failed: badge(status.label, tone: "bad")
        }
    }

    static func badge(_ status: AdminPromotionStatus) -> Node {
        switch status {
        case .active: badge(status.label, tone: "good")
        case .scheduled: badge(status.label, tone: "info")
        case .expired, .usedUp, .disabled: badge(status.label, tone: "muted")
        }
    }

    static func badge(active: Bool) -> Node {
        active ? badge("Active", tone: "good") : badge("Archived", tone: "muted")
    }

    static func badge(_ tier: Tier) -> Node {
        switch tier {
        case .free: badge("Free", tone: "muted")
        case .pro: badge("Pro", tone: "info")
        }
    }
}
