import HTML

extension AdminPages {
    /// An error page in the back office's layout: what happened and where to go next (403 for a
    /// role that does not open the page, naming the role, or for an expired form; 404; 409 for an
    /// order or product that moved, with a link back to it; 422; 500). Send it with
    /// ``AdminErrorPage/statusCode``.
    public static func error(_ page: AdminErrorPage, context: AdminContext) -> HTMLDocument {
        let home = context.staff == nil ? AdminPaths.login : AdminPaths.dashboard
        let homeLink = AdminForms.buttonLink(
            context.staff == nil ? "Log in" : "Back to the dashboard", href: home, style: .primary)
        let (title, message, link): (String, Node, Node) =
            switch page {
            case .forbidden(let role):
                (
                    "Not allowed",
                    .p(
                        [], .text("Your role does not allow this page. You are signed in as "), .strong(role.rawValue),
                        .text(".")),
                    homeLink
                )
            case .expiredForm:
                (
                    "This form has expired",
                    .p("For your security, forms expire after a while. Go back, reload the page and try again."),
                    homeLink
                )
            case .notFound:
                (
                    "Page not found",
                    .p("There is nothing here. It may have moved, or the address may be mistyped."),
                    homeLink
                )
            case .conflict(.order(let id, let now)):
                (
                    "This order has changed",
                    .p(
                        [],
                        .text("Someone else moved this order while you had it open: it is now "),
                        .strong(now.label.lowercased()),
                        .text(". Nothing was done. Look at it again before you act.")),
                    AdminForms.buttonLink("Back to the order", href: AdminPaths.order(id), style: .primary)
                )
            case .conflict(.product(let id, let title)):
                (
                    "This product has changed",
                    .p(
                        [],
                        .text("Someone else changed "),
                        .strong(title),
                        .text(" while you had it open. Nothing was done. Look at it again before you act.")),
                    AdminForms.buttonLink("Back to the product", href: AdminPaths.product(id), style: .primary)
                )
            case .unprocessable(let message):
                (
                    "That could not be done",
                    .p(message ?? "What was sent could not be used. Go back, check it and try again."),
                    homeLink
                )
            case .serverError:
                (
                    "Something went wrong",
                    .p(
                        "Sorry, something failed on the shop's side. Nothing was done twice: "
                            + "look at the page again before trying once more."),
                    homeLink
                )
            }
        return AdminLayout.document(
            title: title, context: context, section: nil,
            .h1(title),
            .div([.class("empty-state")], message, .p([], link)))
    }
}
