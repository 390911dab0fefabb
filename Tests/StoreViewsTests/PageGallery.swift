import CheckoutKit
import HTML
import StoreViews

/// Every page of the storefront in the states worth looking at, by snapshot name.
enum PageGallery {
    /// A named rendering of one page.
    struct Entry {
        let name: String
        let document: HTMLDocument
    }

    /// Every page, as `shopper` sees it.
    static func pages(for shopper: Shopper) throws -> [Entry] {
        let context = shopper.context()
        var pages = [
            Entry(name: "catalog", document: StorePages.catalog(catalog(CatalogQuery()), context: context)),
            Entry(
                name: "product",
                document: StorePages.product(
                    ProductPage(
                        product: ProductSummary(Products.cap),
                        description: "Breathable mesh cap with a soft brim and a sweat band that dries in minutes.",
                        quantityInBasket: 1),
                    context: context)),
            Entry(
                name: "basket",
                document: StorePages.basket(
                    try Baskets.page(Baskets.thresholdLines, promotion: Promotions.run10),
                    context: shopper.context(status: StatusMessage("Code RUN10 applied.")))),
            Entry(
                name: "basket-empty",
                document: StorePages.basket(
                    BasketPage(lines: [], totals: BasketTotals(try Baskets.breakdown([]))),
                    context: shopper.context(basketCount: 0))),
            Entry(name: "checkout", document: StorePages.checkout(try checkout(), context: context)),
            Entry(name: "checkout-review", document: StorePages.checkoutReview(try review(), context: context)),
            Entry(
                name: "receipt",
                document: StorePages.receipt(
                    try Fixtures.receipt(),
                    context: shopper.context(basketCount: 0, status: StatusMessage("Payment received. Thank you!")))),
            Entry(name: "orders", document: StorePages.orders(try orders(), context: context)),
            Entry(name: "orders-empty", document: StorePages.orders(OrdersPage(orders: []), context: context)),
            Entry(name: "error-404", document: StorePages.error(.notFound, context: context)),
            Entry(name: "error-403", document: StorePages.error(.expiredForm, context: context)),
            Entry(name: "error-500", document: StorePages.error(.serverError, context: context)),
            Entry(name: "error-400", document: StorePages.error(.badRequest, context: context)),
            Entry(name: "error-422", document: StorePages.error(.cardNumberRefused, context: context)),
            Entry(name: "error-429", document: StorePages.error(.tooManyRequests, context: context)),
        ]
        switch shopper {
        case .anonymous:
            pages.append(Entry(name: "login", document: StorePages.login(LoginPage(), context: context)))
        case .customer:
            pages.append(
                Entry(
                    name: "profile",
                    document: StorePages.profile(
                        ProfilePage(firstName: "Ada", lastName: "Lovelace", email: "pro@onlinestore.test", tier: .pro),
                        context: context)))
        }
        return pages
    }

    /// The other states of the pages: problems, hints, notices, empty results.
    static func variants() throws -> [Entry] {
        let context = Shopper.anonymous.context()
        let customer = Shopper.customer.context()
        return [
            Entry(
                name: "catalog-search",
                document: StorePages.catalog(
                    catalog(CatalogQuery(search: "running", category: "apparel", sort: .priceLowToHigh)),
                    context: context)),
            Entry(
                name: "catalog-no-results",
                document: StorePages.catalog(catalog(CatalogQuery(search: "kayak")), context: context)),
            Entry(
                name: "catalog-large",
                document: StorePages.catalog(
                    CatalogPage(
                        query: CatalogQuery(), categories: Products.categories,
                        products: Products.many(100).map { ProductSummary($0) }),
                    context: context)),
            Entry(
                name: "catalog-large-category-page-2",
                document: StorePages.catalog(
                    CatalogPage(
                        query: CatalogQuery(category: "hydration", page: 2), categories: Products.categories,
                        products: Products.many(100).map { ProductSummary($0) }),
                    context: context)),
            Entry(
                name: "product-sold-out",
                document: StorePages.product(
                    ProductPage(product: ProductSummary(Products.sunglasses), description: "Wraparound lenses."),
                    context: context)),
            Entry(
                name: "basket-free-shipping-hint",
                document: StorePages.basket(
                    try Baskets.page(Baskets.capLines), context: Shopper.anonymous.context(basketCount: 1))),
            Entry(
                name: "basket-promo-error",
                document: StorePages.basket(
                    try Baskets.page(Baskets.capLines, error: "That code isn't valid.", typed: "SPRING"),
                    context: Shopper.anonymous.context(
                        basketCount: 1, status: StatusMessage("That code isn't valid.", kind: .error)))),
            Entry(
                name: "basket-promo-notice",
                document: StorePages.basket(
                    try Baskets.page(Baskets.thresholdLines, promotion: Promotions.big20), context: context)),
            Entry(
                name: "basket-pro",
                document: StorePages.basket(try Baskets.page(Baskets.capLines, tier: .pro), context: customer)),
            Entry(
                name: "checkout-declined",
                document: StorePages.checkout(
                    try checkout(problem: .declined(.insufficientFunds), card: "tok_insufficientFunds"),
                    context: context)),
            Entry(
                name: "checkout-sold-out",
                document: StorePages.checkout(
                    try checkout(
                        problem: .soldOut([
                            .init(title: "Running socks", available: 1), .init(title: "Running cap", available: 0),
                        ])),
                    context: context)),
            Entry(
                name: "checkout-payment-in-progress",
                document: StorePages.checkout(try checkout(problem: .paymentInProgress), context: context)),
            Entry(
                name: "checkout-review-unavailable",
                document: StorePages.checkoutReview(try review(problem: .unavailable), context: context)),
            Entry(
                name: "checkout-review-price-changed",
                document: StorePages.checkoutReview(
                    try review(problem: .priceChanged(previousTotal: eur(40_00), newTotal: eur(45_00))),
                    context: context)),
            Entry(
                name: "checkout-review-payment-link",
                document: StorePages.checkoutReview(try review(method: .paymentLink), context: context)),
            Entry(
                name: "login-error",
                document: StorePages.login(
                    LoginPage(email: "free@onlinestore.test", error: LoginPage.wrongCredentials), context: context)),
            Entry(
                name: "receipt-partly-refunded",
                document: StorePages.receipt(try Fixtures.partlyRefundedReceipt(), context: customer)),
            Entry(
                name: "profile-free",
                document: StorePages.profile(
                    ProfilePage(firstName: "Grace", lastName: "Hopper", email: "free@onlinestore.test", tier: .free),
                    context: Shopper.customer.context(basketCount: 0))),
        ]
    }

    static func catalog(_ query: CatalogQuery) -> CatalogPage {
        CatalogPage(
            query: query, categories: Products.categories, products: Products.all.map { ProductSummary($0) })
    }

    static func checkout(problem: CheckoutProblem? = nil, card: String? = nil) throws -> CheckoutPage {
        let lines = Baskets.thresholdLines
        return CheckoutPage(
            lines: try Baskets.items(lines),
            totals: BasketTotals(try Baskets.breakdown(lines, promotion: Promotions.run10)),
            options: try Baskets.options(lines, promotion: Promotions.run10), selectedCard: card, problem: problem)
    }

    static func review(
        method: PaymentMethod.Kind = .card, problem: CheckoutProblem? = nil
    ) throws
        -> CheckoutReviewPage
    {
        let lines = Baskets.thresholdLines
        let priced = try Baskets.breakdown(lines, promotion: Promotions.run10)
        return CheckoutReviewPage(
            lines: try Baskets.items(lines), totals: BasketTotals(priced),
            option: try FeePolicy.standard.quote(for: method, total: priced.total),
            card: method == .card ? TestCard.sandbox.first : nil, idempotencyKey: Fixtures.idempotencyKey,
            problem: problem)
    }

    static func orders() throws -> OrdersPage {
        let receipt = try Fixtures.receipt()
        return OrdersPage(orders: [
            OrdersPage.Entry(
                id: receipt.id, placedAt: receipt.placedAt, itemCount: 4, total: receipt.total,
                paymentStatus: .partiallyRefunded),
            OrdersPage.Entry(
                id: "ord_1A3C5E7G9J2L4N6P8R1T3V5X7Z", placedAt: receipt.placedAt.addingTimeInterval(-86_400 * 9),
                itemCount: 1, total: eur(26_85), paymentStatus: .refunded),
        ])
    }
}
