import HTML

extension StorePages {
    /// The shopper's orders at `/orders`, each linking to its receipt; or a way to start shopping.
    public static func orders(_ page: OrdersPage, context: PageContext) -> HTMLDocument {
        guard !page.orders.isEmpty else {
            return PageLayout.document(
                title: "Orders", context: context, section: .orders,
                .h1("Your orders"),
                .div(
                    [.class("empty-state")],
                    .p("You haven't placed any orders yet."),
                    .p([], Forms.buttonLink("Start shopping", href: StorePaths.catalog, style: .primary))))
        }
        return PageLayout.document(
            title: "Orders", context: context, section: .orders,
            .h1("Your orders"),
            .ul([.class("order-list")], .fragment(page.orders.map { entry($0, context: context) })))
    }

    private static func entry(_ order: OrdersPage.Entry, context: PageContext) -> Node {
        .li(
            [.class("order-card")],
            .h2(
                [],
                .a(
                    [.href(StorePaths.order(order.id))],
                    .time([.datetime(context.isoDateTime(order.placedAt))], context.dateTime(order.placedAt)))),
            .p(
                [.class("order-summary")],
                .text("\(order.itemCount) \(order.itemCount == 1 ? "item" : "items") · "),
                .strong(context.money(order.total)),
                .text(" "),
                statusBadge(order.paymentStatus)),
            .p([.class("order-id")], order.id))
    }
}
