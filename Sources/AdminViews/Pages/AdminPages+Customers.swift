import CheckoutKit
import HTML

extension AdminPages {
    /// The customers at `/admin/customers`: the search, the table (email, name, tier, orders,
    /// joined) and the pages.
    public static func customers(_ page: AdminCustomerListPage, context: AdminContext) -> HTMLDocument {
        let search = page.search
        let list: Node =
            page.customers.isEmpty
            ? AdminTables.empty(
                search.isEmpty ? "There are no customers yet." : "No customer matches “\(search)”.",
                search.isEmpty ? .empty : .p([], .a([.href(AdminPaths.customers)], "Show every customer")))
            : .fragment(
                AdminTables.count(page.paging.totalCount, "customer", "customers", context: context),
                AdminTables.table(
                    id: "customers",
                    caption: search.isEmpty ? "Customers" : "Customers matching “\(search)”",
                    columns: [
                        .init("Email"), .init("Name"), .init("Tier"), .init("Orders", number: true), .init("Joined"),
                    ],
                    rows: page.customers.map { customer in
                        AdminTables.Row(
                            [],
                            .heading(.a([.href(AdminPaths.customer(customer.id))], customer.email)),
                            .init(customer.name),
                            .init(AdminTables.badge(customer.tier)),
                            .init(context.number(customer.orderCount)),
                            .init(context.dateText(customer.joinedAt)))
                    }),
                AdminTables.paging(page.paging, label: "Pages of customers") {
                    AdminPaths.customers(search: search, page: $0)
                })
        return AdminLayout.document(
            title: search.isEmpty ? "Customers" : "Customers matching “\(search)”", context: context,
            section: .customers,
            .h1("Customers"),
            AdminForms.search(
                AdminPaths.customers, class: "panel search-form", label: "Customers",
                AdminForms.input(
                    AdminForms.Field(
                        id: "search", name: AdminFormFields.search, label: "Search", hint: "Email or name"),
                    type: "search", value: search, [.autocomplete("off"), .spellcheck(false), .maxlength(200)]),
                AdminForms.submit("Search")),
            list)
    }

    /// A customer at `/admin/customers/{id}`: email, name, tier, when they joined, and their
    /// orders (the order list's rows), a page at a time.
    public static func customer(_ page: AdminCustomerPage, context: AdminContext) -> HTMLDocument {
        let orders: Node =
            page.orders.isEmpty
            ? .p([.class("quiet")], "No orders yet.")
            : .fragment(
                orderTable(id: "customer-orders", caption: "Orders, newest first", page.orders, context: context),
                AdminTables.paging(page.paging, label: "Pages of orders") {
                    AdminPaths.customer(page.id, page: $0)
                })
        return AdminLayout.document(
            title: page.email, context: context, section: .customers,
            .p([.class("breadcrumb")], .a([.href(AdminPaths.customers)], "Customers")),
            .h1(page.email),
            .dl(
                [.class("facts")],
                .div([], .dt("Name"), .dd(page.name)),
                .div([], .dt("Email"), .dd(page.email)),
                .div([], .dt("Membership"), .dd([], AdminTables.badge(page.tier))),
                .div([], .dt("Joined"), .dd([], context.dateText(page.joinedAt))),
                .div([], .dt("Orders"), .dd([], .text(context.number(page.paging.totalCount))))),
            .section(
                [.class("customer-orders"), .ariaLabelledBy("orders-title")],
                .h2([.id("orders-title")], "Orders"),
                orders))
    }
}
