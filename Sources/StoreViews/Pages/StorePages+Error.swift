import HTML

extension StorePages {
    /// A friendly error page in the store's layout: what happened and what to do next (404, 403 for
    /// an expired form: "please try again — your basket is kept", 422 for a card number typed where
    /// none belongs, 429, 400, 500). Send it with ``ErrorPage/statusCode``.
    public static func error(_ page: ErrorPage, context: PageContext) -> HTMLDocument {
        let (title, message, link): (String, String, Node) =
            switch page {
            case .badRequest:
                (
                    "We couldn't read that request",
                    "The page or form sent something this shop doesn't understand. Please go back and try again.",
                    Forms.buttonLink("Back to the shop", href: StorePaths.catalog, style: .primary)
                )
            case .notFound:
                (
                    "Page not found",
                    "We couldn't find that page. It may have moved, or the address may be mistyped.",
                    Forms.buttonLink("Back to the shop", href: StorePaths.catalog, style: .primary)
                )
            case .expiredForm:
                (
                    "This form has expired",
                    "For your security, forms expire after a while. Please try again — your basket is kept.",
                    Forms.buttonLink("Back to your basket", href: StorePaths.basket, style: .primary)
                )
            case .cardNumberRefused:
                (
                    "Card numbers aren't entered here",
                    "Something you sent looked like a payment card number. This shop never takes card numbers, "
                        + "so nothing was kept. At checkout, choose a card by its name instead.",
                    Forms.buttonLink("Back to your basket", href: StorePaths.basket, style: .primary)
                )
            case .tooManyRequests:
                (
                    "Please wait a moment",
                    "There were too many attempts from here in a short time. Wait a minute, then try again — "
                        + "your basket is kept.",
                    Forms.buttonLink("Back to the shop", href: StorePaths.catalog, style: .primary)
                )
            case .serverError:
                (
                    "Something went wrong",
                    "Sorry, something went wrong on our side. Please try again in a moment. "
                        + "If you were paying, you won't be charged twice.",
                    Forms.buttonLink("Back to the shop", href: StorePaths.catalog, style: .primary)
                )
            }
        return PageLayout.document(
            title: title, context: context, section: nil,
            .h1(title),
            .div([.class("empty-state")], .p(message), .p([], link)))
    }
}
