import CheckoutKit
import Foundation
import HTML

extension AdminPages {
    /// The dashboard at `/admin`: today's orders and revenue, the orders waiting to be packed (a
    /// link to that list), and the products low on stock or sold out (each a link to its page).
    /// Links go only to the sections the viewer may open.
    public static func dashboard(_ page: AdminDashboardPage, context: AdminContext) -> HTMLDocument {
        let mayOpenOrders = context.sections.contains(.orders)
        let toPack: Node =
            mayOpenOrders
            ? .a(
                [.href(AdminPaths.orders(AdminOrderFilter(fulfilment: .unfulfilled)))],
                page.ordersToPack == 1 ? "See the order to pack" : "See the orders to pack")
            : .empty
        return AdminLayout.document(
            title: "Dashboard", context: context, section: .dashboard,
            .h1("Dashboard"),
            .section(
                [.class("figures"), .ariaLabelledBy("today-title")],
                .h2([.id("today-title")], .text("Today, "), context.dateText(page.day)),
                .dl(
                    [.class("figure-list")],
                    .div(
                        [.class("figure")], .dt("Orders"),
                        .dd([.class("figure-value")], .text(context.number(page.ordersToday)))),
                    .div(
                        [.class("figure")], .dt("Revenue"),
                        .dd([.class("figure-value")], .text(context.money(page.revenueToday)))),
                    .div(
                        [.class("figure")], .dt("Waiting to be packed"),
                        .dd([.class("figure-value")], .text(context.number(page.ordersToPack))),
                        page.ordersToPack > 0 ? .dd([.class("figure-link")], toPack) : .empty))),
            .div(
                [.class("stock-alert-row")],
                stockList(
                    id: "low-stock", title: "Low on stock",
                    note: "Products with \(AdminDashboardPage.lowStockThreshold) units or fewer.",
                    empty: "No product is low on stock.", page.lowStock, context: context),
                stockList(
                    id: "sold-out", title: "Sold out", note: nil, empty: "No product is sold out.", page.soldOut,
                    context: context)))
    }

    private static func stockList(
        id: String, title: String, note: String?, empty: String, _ alerts: [AdminDashboardPage.StockAlert],
        context: AdminContext
    ) -> Node {
        let mayOpenProducts = context.sections.contains(.products)
        let headingID = "\(id)-title"
        let items = alerts.map { alert in
            Node.li(
                [],
                mayOpenProducts
                    ? .a([.href(AdminPaths.product(alert.id))], alert.title) : .text(alert.title),
                .text(" "),
                .span([.class("sku")], alert.sku),
                .text(" "),
                .span([.class("stock-count")], alert.stock == 0 ? "none left" : "\(context.number(alert.stock)) left"))
        }
        return .section(
            [.class("panel stock-alerts"), .ariaLabelledBy(headingID)],
            .h2([.id(headingID)], title),
            note.map { .p([.class("hint")], $0) } ?? .empty,
            alerts.isEmpty ? .p([.class("quiet")], empty) : .ul([.class("alert-list")], .fragment(items)))
    }
}

extension AdminContext {
    /// A day as a `<time>` element.
    func dateText(_ date: Date) -> Node {
        .time([.datetime(dateFieldValue(date))], self.date(date))
    }
}
