import HTML
import StoreViews

/// The frame every back-office page shares: the document head with the back office's one
/// stylesheet, a skip link, the header (the shop's name, the sections the member of staff may open,
/// who is signed in and **Log out**), the `aria-live` status region, the page's `<main>`, and the
/// footer with a link to the shop.
enum AdminLayout {
    /// The whole document for a page titled `title`, whose `<main>` holds `content`.
    ///
    /// The `<title>` reads "Orders — OnlineStore back office". The content must start with the
    /// page's one `h1`. `section` is the header link marked `aria-current="page"`; the sign-in page
    /// passes `navigation: false` and has neither links nor **Log out**.
    static func document(
        title: String, context: AdminContext, section: AdminSection?, navigation: Bool = true, _ content: Node...
    ) -> HTMLDocument {
        DocumentFrame.document(
            title: "\(title) — \(context.shopName) back office", stylesheet: AdminPaths.stylesheet,
            header: header(context: context, section: section, navigation: navigation), status: context.status,
            content: content,
            footer: footer(context: context))
    }

    private static func header(context: AdminContext, section: AdminSection?, navigation: Bool) -> Node {
        let brand = Node.p(
            [.class("brand")],
            .a(
                [.href(AdminPaths.dashboard)],
                .span([.class("brand-shop")], context.shopName),
                .text(" "),
                .span([.class("brand-office")], "Back office")))
        guard navigation, let staff = context.staff else {
            return .header([.class("admin-header")], .div([.class("header-inner")], brand))
        }
        let links = AdminSection.allCases.filter(context.sections.contains).map { linkSection in
            Node.li(
                [],
                .a(
                    linkSection == section
                        ? [.href(linkSection.path), .ariaCurrent("page")] : [.href(linkSection.path)],
                    linkSection.label))
        }
        return .header(
            [.class("admin-header")],
            .div(
                [.class("header-inner")],
                brand,
                .div(
                    [.class("account")],
                    .p(
                        [.class("signed-in")],
                        .text("Signed in as "),
                        .strong(staff.email),
                        .text(" (\(staff.role.rawValue))")),
                    AdminForms.post(
                        AdminPaths.logout, context: context, class: "logout",
                        .button([.type("submit"), .class("link-button")], "Log out")))),
            links.isEmpty
                ? .empty
                : .nav(
                    [.class("admin-nav"), .ariaLabel("Back office")],
                    .ul([.class("nav-links")], .fragment(links))))
    }

    private static func footer(context: AdminContext) -> Node {
        .footer(
            [.class("admin-footer")],
            .p(
                [],
                .text("\(context.shopName) back office · "),
                .a([.href(AdminPaths.shop)], "View the shop")))
    }
}
