import CheckoutKit
import HTML

extension AdminPages {
    /// The orders at `/admin/orders`, newest first: the filter (a GET form: **Payment status**,
    /// **Fulfilment status**, **From**, **To**, **Search**, **Filter**), the table and the pages.
    public static func orders(_ page: AdminOrderListPage, context: AdminContext) -> HTMLDocument {
        let filter = page.filter
        let list: Node =
            page.orders.isEmpty
            ? AdminTables.empty(
                filter.isEmpty ? "There are no orders yet." : "No order matches this filter.",
                filter.isEmpty ? .empty : .p([], .a([.href(AdminPaths.orders)], "Show every order")))
            : .fragment(
                AdminTables.count(page.paging.totalCount, "order", "orders", context: context),
                orderTable(
                    id: "orders",
                    caption: filter.isEmpty ? "Orders, newest first" : "Orders matching the filter, newest first",
                    page.orders, context: context),
                AdminTables.paging(page.paging, label: "Pages of orders") { AdminPaths.orders(filter, page: $0) })
        return AdminLayout.document(
            title: "Orders", context: context, section: .orders,
            .h1("Orders"),
            filterForm(filter),
            list)
    }

    private static func filterForm(_ filter: AdminOrderFilter) -> Node {
        AdminForms.search(
            AdminPaths.orders, class: "panel filter-form", label: "Filter orders",
            AdminForms.select(
                AdminForms.Field(id: "filter-payment", name: AdminFormFields.payment, label: "Payment status"),
                options: PaymentStatus.allCases.map { ($0.rawValue, $0.label) },
                selected: filter.payment?.rawValue, placeholder: "Any"),
            AdminForms.select(
                AdminForms.Field(id: "filter-fulfilment", name: AdminFormFields.fulfilment, label: "Fulfilment status"),
                options: FulfilmentStatus.allCases.map { ($0.rawValue, $0.label) },
                selected: filter.fulfilment?.rawValue, placeholder: "Any"),
            AdminForms.input(
                AdminForms.Field(id: "filter-from", name: AdminFormFields.from, label: "From"), type: "date",
                value: filter.from),
            AdminForms.input(
                AdminForms.Field(id: "filter-to", name: AdminFormFields.to, label: "To"), type: "date",
                value: filter.to),
            AdminForms.input(
                AdminForms.Field(
                    id: "filter-search", name: AdminFormFields.search, label: "Search",
                    hint: "Order id or customer email"),
                type: "search", value: filter.search,
                [.autocomplete("off"), .spellcheck(false), .maxlength(AdminOrderFilter.maximumSearchLength)]),
            .div(
                [.class("button-row")],
                AdminForms.submit("Filter", style: .primary),
                filter.isEmpty ? .empty : .a([.href(AdminPaths.orders), .class("button")], "Clear")))
    }

    /// The table of orders the order list and a customer's page share.
    static func orderTable(id: String, caption: String, _ orders: [AdminOrderRow], context: AdminContext) -> Node {
        AdminTables.table(
            id: id, caption: "\(caption) (times in \(context.zoneName))",
            columns: [
                .init("Order"), .init("Placed"), .init("Customer"), .init("Total", number: true), .init("Payment"),
                .init("Fulfilment"),
            ],
            rows: orders.map { order in
                AdminTables.Row(
                    [],
                    .heading(.a([.href(AdminPaths.order(order.id)), .class("order-id")], order.id)),
                    .init(context.time(order.placedAt, short: true)),
                    .init(order.customerEmail.map { .text($0) } ?? .span([.class("quiet")], "Guest")),
                    .init(context.money(order.total)),
                    .init(AdminTables.badge(order.payment)),
                    .init(AdminTables.badge(order.fulfilment)))
            })
    }
}
