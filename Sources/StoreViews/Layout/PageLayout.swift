import HTML

/// The frame every page shares: the document head with the one stylesheet, a skip link, the
/// header (store name, who is logged in, the basket count), the `aria-live` status region, the
/// page's `<main>`, and the footer.
enum PageLayout {
    /// The part of the store a page belongs to; its header link is marked `aria-current="page"`.
    enum Section {
        case catalog
        case basket
        case orders
        case login
        case profile
    }

    /// The whole document for a page titled `title`, whose `<main>` holds `content`.
    ///
    /// The `<title>` reads "Basket — OnlineStore". The content must start with the page's one `h1`.
    static func document(title: String, context: PageContext, section: Section?, _ content: Node...) -> HTMLDocument {
        DocumentFrame.document(
            title: "\(title) — \(context.storeName)", stylesheet: StorePaths.stylesheet,
            header: header(context: context, section: section), status: context.status, content: content,
            footer: footer(context: context))
    }

    /// The store's name, the basket with its count, and the account links: who is logged in,
    /// **Log out** (a POST form), or **Log in**.
    private static func header(context: PageContext, section: Section?) -> Node {
        func link(_ label: String, _ href: String, _ linkSection: Section) -> Node {
            .li([], .a(linkSection == section ? [.href(href), .ariaCurrent("page")] : [.href(href)], label))
        }
        let account: Node
        if let name = context.customerName {
            account = .fragment(
                .li([.class("signed-in")], .text("Signed in as "), .strong(name)),
                link("Orders", StorePaths.orders, .orders),
                link("Profile", StorePaths.profile, .profile),
                .li(
                    [],
                    Forms.post(
                        StorePaths.logout, context: context, class: "logout",
                        .button([.type("submit"), .class("link-button")], "Log out"))))
        } else {
            account = .fragment(link("Orders", StorePaths.orders, .orders), link("Log in", StorePaths.login, .login))
        }
        let count = context.basketCount
        var basketAttributes: [Attribute] = [.href(StorePaths.basket), .class("basket-link")]
        if section == .basket { basketAttributes.append(.ariaCurrent("page")) }
        return .header(
            [.class("site-header")],
            .div(
                [.class("header-inner")],
                .a([.class("brand"), .href(StorePaths.catalog)], context.storeName),
                .a(
                    basketAttributes,
                    .text("Basket "),
                    .span([.class("basket-count")], String(count)),
                    .span([.class("visually-hidden")], count == 1 ? " item" : " items")),
                .nav([.class("account"), .ariaLabel("Account")], .ul([.class("header-links")], account))))
    }

    private static func footer(context: PageContext) -> Node {
        .footer(
            [.class("site-footer")],
            .p(
                [],
                .text("\(context.storeName) · Payments run in the provider's test mode: no real money is charged.")))
    }
}
