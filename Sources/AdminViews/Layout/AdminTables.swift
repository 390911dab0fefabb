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

    /// One row of a table: its cells in the order of the table's columns, and the row's own
    /// attributes (an archived product's row is greyed).
    struct Row {
        let attributes: [Attribute]
        let cells: [Cell]

        init(_ attributes: [Attribute], _ cells: Cell...) {
            self.attributes = attributes
            self.cells = cells
        }
    }

    /// One cell of a row: the row's heading (`<th scope="row">`, what the row is about) or a value.
    /// The table gives every cell its column's heading as `data-label`, which a narrow screen shows
    /// beside the value, and a column of numbers its alignment.
    struct Cell {
        let content: Node
        let isRowHeading: Bool
        let className: String?

        init(_ content: Node, class className: String? = nil) {
            self.content = content
            self.isRowHeading = false
            self.className = className
        }

        init(_ text: String, class className: String? = nil) {
            self.init(.text(text), class: className)
        }

        private init(heading content: Node) {
            self.content = content
            self.isRowHeading = true
            self.className = nil
        }

        /// The cell that names the row: a product's title, an order's id.
        static func heading(_ content: Node) -> Cell { Cell(heading: content) }

        static func heading(_ text: String) -> Cell { Cell(heading: .text(text)) }
    }

    /// A table whose caption is text.
    static func table(
        id: String, caption: String, columns: [Column], rows: [Row], class className: String = ""
    )
        -> Node
    {
        table(id: id, caption: .text(caption), columns: columns, rows: rows, class: className)
    }

    /// A table whose caption holds more than text.
    ///
    /// On a wide screen it is a table, inside a region that scrolls sideways if it must and can be
    /// reached and scrolled with the keyboard; the region is named by the caption. On a narrow one
    /// the stylesheet shows each row as a card: the row's heading on top, then each value after its
    /// column's heading — nothing to scroll sideways, nothing cut off.
    static func table(
        id: String, caption: Node, columns: [Column], rows: [Row], class className: String = ""
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
                .tbody(.fragment(rows.map { row(of: $0, columns: columns) }))))
    }

    private static func row(of row: Row, columns: [Column]) -> Node {
        assert(row.cells.count == columns.count, "a row of \(row.cells.count) cells in \(columns.count) columns")
        return .tr(
            row.attributes,
            .fragment(
                zip(columns, row.cells).map { column, cell in
                    var attributes: [Attribute] = cell.isRowHeading ? [.scope("row")] : []
                    let classes = [column.isNumber ? "number" : nil, cell.className].compactMap { $0 }
                    if !classes.isEmpty { attributes.append(.class(classes.joined(separator: " "))) }
                    attributes.append(Attribute("data-label", column.label))
                    return cell.isRowHeading ? .th(attributes, cell.content) : .td(attributes, cell.content)
                }))
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

    static func badge(_ status: PaymentStatus) -> Node {
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
