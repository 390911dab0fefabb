import CheckoutKit
import Concurrency
import Foundation
import HTML
import HTTPServer
import StoreAPI
import StoreCrypto
import StoreDatabase
import StoreServices
import StoreViews

/// The web storefront: pages rendered by `StoreViews` from what the services say, and forms that
/// change the basket, pay, log in and out. Every form is a POST checked against the session's
/// CSRF token and answered by a 303 redirect (POST-redirect-GET); the result of the action rides
/// a one-shot status cookie to the page it leads to. docs/BEHAVIOUR.md §9.9.
struct WebRoutes: Sendable {
    let catalog: Catalog
    let sessions: Sessions
    let baskets: BasketService
    let checkout: CheckoutService
    let orders: OrdersService
    let accounts: AccountService
    let login: Login
    let configuration: StoreConfiguration
    let clock: StoreClock
    /// The catalog page of a visitor without a session, rendered once per catalog snapshot.
    let anonymousCatalog = AnonymousCatalogPage()

    func register(on routes: inout RouteTable) {
        routes.page(.get, StorePaths.stylesheet, .immediate { _, _ in Response(prepared: Self.stylesheet) })
        routes.page(
            .get, StorePaths.catalog,
            .immediateOrAsync(
                { request, _ in anonymousCatalogPage(request) }, { request, _ in try await catalogPage(request) }))
        routes.page(.get, StorePaths.productPattern) { request, context in try await productPage(request, context) }
        routes.page(.get, StorePaths.basket) { request, _ in try await basketPage(request) }
        routes.page(.get, StorePaths.checkout) { request, _ in try await checkoutPage(request) }
        routes.page(.get, StorePaths.checkoutReview) { request, _ in try await reviewPage(request) }
        routes.page(.get, StorePaths.orders) { request, _ in try await ordersPage(request) }
        routes.page(.get, StorePaths.orderPattern) { request, context in try await receiptPage(request, context) }
        routes.page(.get, StorePaths.login) { request, _ in try await loginPage(request) }
        routes.page(.get, StorePaths.profile) { request, _ in try await profilePage(request) }

        routes.page(.post, StorePaths.basketItems, form(addToBasket))
        routes.page(.post, StorePaths.basketItemPattern, form(updateLine))
        routes.page(.post, StorePaths.removeBasketItemPattern, form(removeLine))
        routes.page(.post, StorePaths.promotion, form(applyPromotion))
        routes.page(.post, StorePaths.removePromotion, form(removePromotion))
        routes.page(.post, StorePaths.pay, form(pay))
        routes.page(.post, StorePaths.login, form(logIn))
        routes.page(.post, StorePaths.logout, form(logOut))
    }

    static let stylesheet = PreparedResponse(
        {
            var response = Response.bytes(Array(StoreStylesheet.css.utf8), contentType: "text/css; charset=utf-8")
            response.headers["Cache-Control"] = "public, max-age=3600"
            return response
        }())

    // MARK: - Pages

    /// The catalog page of a visitor without a session or status to show, asking for the whole
    /// catalog — most first visits: the same page for everyone, prepared once per catalog
    /// snapshot and sent from the network thread. `nil` for any other visit.
    private func anonymousCatalogPage(_ request: Request) -> Response? {
        guard request.queryItems.isEmpty, request.cookie(WebSessions.sessionCookie) == nil,
            request.cookie(WebSessions.statusCookie) == nil
        else { return nil }
        let (generation, products, categories) = catalog.read { ($0.generation, $0.products, $0.categories) }
        return Response(
            prepared: anonymousCatalog.page(for: generation) {
                let page = CatalogPage(
                    query: CatalogQuery(), categories: categories, products: products.map { ProductSummary($0) })
                return Self.html(StorePages.catalog(page, context: PageContext(csrfToken: "")), private: false)
            })
    }

    private func catalogPage(_ request: Request) async throws -> Response {
        let query = CatalogQuery(parameters: Self.parameters(request.queryItems))
        let (products, categories) = catalog.read { ($0.products, $0.categories) }
        let visit = try await visit(request)
        let page = CatalogPage(query: query, categories: categories, products: products.map { ProductSummary($0) })
        return visit.respond(StorePages.catalog(page, context: visit.context))
    }

    private func productPage(_ request: Request, _ context: RequestContext) async throws -> Response {
        let visit = try await visit(request)
        guard let id = try? context.parameter(ProductID.self),
            let product = catalog.read({ $0.product(id) })
        else { return visit.notFound() }
        let inBasket = visit.basket?.lines.first { $0.productID == id }?.quantity.value ?? 0
        let page = ProductPage(
            product: ProductSummary(product), description: product.description, quantityInBasket: inBasket)
        return visit.respond(StorePages.product(page, context: visit.context))
    }

    private func basketPage(_ request: Request) async throws -> Response {
        let visit = try await visit(request)
        var promoCode = BasketPage.PromoCode()
        if let basket = visit.basket {
            promoCode.applied = basket.promotion?.code.rawValue ?? basket.unusableCode?.rawValue
            promoCode.notice = basket.price.promotionNotice
            if let notice = basket.unusableCodeNotice { promoCode.error = notice }
        }
        if case .promotionInvalid(let typed) = visit.status {
            promoCode.error = "That code does not exist or can no longer be used."
            promoCode.typed = typed
        }
        let page = BasketPage(lines: lineItems(visit.basket), totals: totals(visit), promoCode: promoCode)
        return visit.respond(StorePages.basket(page, context: visit.context))
    }

    private func checkoutPage(_ request: Request) async throws -> Response {
        let visit = try await visit(request)
        guard let basket = visit.basket, !basket.lines.isEmpty else { return Self.redirect(StorePaths.basket) }
        let method = request.query(FormFields.method).flatMap(PaymentMethod.Kind.init(rawValue:)) ?? .card
        let page = CheckoutPage(
            lines: lineItems(basket), totals: BasketTotals(basket.price), options: try options(basket),
            selectedMethod: method, selectedCard: request.query(FormFields.card))
        return visit.respond(StorePages.checkout(page, context: visit.context))
    }

    /// Review and pay. Mints the payment's idempotency key — or keeps the one in the address after
    /// a payment that may not have gone through, so paying again settles that same attempt.
    private func reviewPage(_ request: Request) async throws -> Response {
        let visit = try await visit(request)
        guard let basket = visit.basket, !basket.lines.isEmpty else { return Self.redirect(StorePaths.basket) }
        guard let method = request.query(FormFields.method).flatMap(PaymentMethod.Kind.init(rawValue:)) else {
            return Self.redirect(StorePaths.checkout)
        }
        var card: TestCard?
        if method == .card {
            guard let token = request.query(FormFields.card),
                let known = TestCard.sandbox.first(where: { $0.token == token })
            else { return Self.redirect(StorePaths.checkout(method: .card, card: nil)) }
            card = known
        }
        guard let option = try options(basket).first(where: { $0.kind == method }) else {
            return Self.redirect(StorePaths.checkout)
        }
        let key =
            request.query(FormFields.idempotencyKey).flatMap(IdempotencyKey.init(rawValue:))?.rawValue
            ?? IdempotencyKey.random().rawValue
        let page = CheckoutReviewPage(
            lines: lineItems(basket), totals: BasketTotals(basket.price), option: option, card: card,
            idempotencyKey: key, problem: problem(visit.status, basket: basket))
        return visit.respond(StorePages.checkoutReview(page, context: visit.context))
    }

    private func ordersPage(_ request: Request) async throws -> Response {
        let visit = try await visit(request)
        var list: [Order] = []
        if let shopper = visit.shopper { list = try await orders.orders(of: shopper) }
        return visit.respond(
            StorePages.orders(OrdersPage(orders: list.map(OrdersPage.Entry.init)), context: visit.context))
    }

    private func receiptPage(_ request: Request, _ context: RequestContext) async throws -> Response {
        let visit = try await visit(request)
        guard let shopper = visit.shopper, let id = try? context.parameter(OrderID.self),
            let order = try await orders.order(id, of: shopper)
        else { return visit.notFound() }
        return visit.respond(StorePages.receipt(OrderReceipt(order), context: visit.context))
    }

    private func loginPage(_ request: Request) async throws -> Response {
        let visit = try await visit(request)
        if visit.customer != nil { return Self.redirect(StorePaths.profile) }
        var page = LoginPage()
        switch visit.status {
        case .loginFailed: page.error = LoginError.invalidCredentials.message
        case .loginThrottled: page.error = LoginError.throttled(retryAfter: 0).message
        default: break
        }
        return visit.respond(StorePages.login(page, context: visit.context))
    }

    private func profilePage(_ request: Request) async throws -> Response {
        let visit = try await visit(request)
        guard let customer = visit.customer else { return Self.redirect(StorePaths.login) }
        let page = ProfilePage(
            firstName: customer.firstName, lastName: customer.lastName, email: customer.email,
            tier: customer.subscription.tier(at: clock.now()))
        return visit.respond(StorePages.profile(page, context: visit.context))
    }

    // MARK: - Forms

    private func addToBasket(_ form: FormVisit) async throws -> Response {
        let back = Self.safeReturnPath(form.value(FormFields.returnTo)) ?? StorePaths.catalog
        guard let id = form.value(FormFields.productID).flatMap(ProductID.init(parsing:)) else {
            throw HTTPError.productNotFound
        }
        let wanted = form.value(FormFields.quantity).flatMap { Int($0) } ?? 1
        let current = try await baskets.priced(form.shopper).lines.first { $0.productID == id }?.quantity
        guard let added = Quantity(wanted) else { return form.redirect(back, .updated(id)) }
        let quantity = current.map { $0.merged(with: added).quantity } ?? added
        return try await change(form, back: back, product: id, to: quantity, status: .added(id))
    }

    private func updateLine(_ form: FormVisit) async throws -> Response {
        let id = try form.parameter(ProductID.self)
        guard let quantity = form.value(FormFields.quantity).flatMap({ Int($0) }).flatMap(Quantity.init) else {
            return form.redirect(StorePaths.basket, .updated(id))
        }
        return try await change(form, back: StorePaths.basket, product: id, to: quantity, status: .updated(id))
    }

    private func change(
        _ form: FormVisit, back: String, product id: ProductID, to quantity: Quantity, status: WebStatus
    ) async throws -> Response {
        do {
            try await baskets.setQuantity(quantity, of: id, for: form.shopper)
        } catch BasketError.insufficientStock(let available) {
            return form.redirect(back, .notEnoughStock(id, available: available))
        } catch BasketError.unknownProduct {
            throw HTTPError.productNotFound
        }
        return form.redirect(back, status)
    }

    private func removeLine(_ form: FormVisit) async throws -> Response {
        let id = try form.parameter(ProductID.self)
        try await baskets.removeLine(id, for: form.shopper)
        return form.redirect(StorePaths.basket, .removed(id))
    }

    private func applyPromotion(_ form: FormVisit) async throws -> Response {
        let typed = form.value(FormFields.code) ?? ""
        do {
            try await baskets.applyPromotion(typed, for: form.shopper)
        } catch BasketError.invalidPromotion {
            return form.redirect(StorePaths.basket, .promotionInvalid(typed: typed))
        }
        return form.redirect(StorePaths.basket, .promotionApplied)
    }

    private func removePromotion(_ form: FormVisit) async throws -> Response {
        try await baskets.removePromotion(for: form.shopper)
        return form.redirect(StorePaths.basket, .promotionRemoved)
    }

    /// Pays with the key the review page minted: a second submit of the same form (a double click,
    /// a resubmit after going back) replays the first answer and shows the same receipt.
    private func pay(_ form: FormVisit) async throws -> Response {
        let methodName = form.value(FormFields.method) ?? ""
        let card = form.value(FormFields.card)
        let kind = PaymentMethod.Kind(rawValue: methodName)
        let again = { (key: String?) -> String in
            var parameters = [(FormFields.method, methodName)]
            if kind == .card, let card { parameters.append((FormFields.card, card)) }
            if let key { parameters.append((FormFields.idempotencyKey, key)) }
            return StorePaths.checkoutReview + URLText.query(parameters)
        }
        guard let key = form.value(FormFields.idempotencyKey).flatMap(IdempotencyKey.init(rawValue:)),
            let kind, let expectedText = form.value(FormFields.expectedTotal),
            let expected = try? Money(amount: expectedText, currency: configuration.shipping.currency)
        else { return form.redirect(StorePaths.checkout, nil) }
        do {
            let method = try CheckoutRequest(
                paymentMethod: PaymentMethodBody(type: kind.rawValue, token: kind == .card ? card : nil),
                expectedTotal: expected
            ).validatedPaymentMethod()
            let result = try await payOnce(method: method, expected: expected, key: key, shopper: form.shopper)
            switch result.outcome {
            case .paid(let order): return form.redirect(StorePaths.order(order.rawValue), nil)
            case .declined(let reason): return form.redirect(again(nil), .declined(reason))
            }
        } catch let error as CheckoutError {
            switch error {
            case .declined(let reason): return form.redirect(again(nil), .declined(reason))
            case .unavailable: return form.redirect(again(key.rawValue), .unavailable)
            case .priceChanged: return form.redirect(again(nil), .priceChanged(previous: expected.amountText))
            case .outOfStock(let ids): return form.redirect(StorePaths.basket, .soldOut(ids))
            case .paymentInProgress: return form.redirect(again(key.rawValue), .paymentInProgress)
            case .emptyBasket: return form.redirect(StorePaths.basket, nil)
            default: return form.redirect(StorePaths.checkout, nil)
            }
        } catch IdempotencyError.inProgress {
            // The first submit of this form is still being paid and did not finish in time.
            return form.redirect(again(key.rawValue), .paymentInProgress)
        } catch is IdempotencyError {
            // The key was used for another basket: a fresh review.
            return form.redirect(again(nil), .paymentInProgress)
        }
    }

    /// Pays, and when the same form is being paid by an earlier submit (a double click), waits
    /// for that one's answer — up to 10 s — so this submit shows the same receipt, as the browser
    /// shows only the last answer.
    private func payOnce(
        method: PaymentMethod, expected: Money, key: IdempotencyKey, shopper: Shopper
    ) async throws -> CheckoutResult {
        for _ in 0..<50 {
            do {
                return try await checkout.checkout(method: method, expectedTotal: expected, key: key, shopper: shopper)
            } catch IdempotencyError.inProgress {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        return try await checkout.checkout(method: method, expectedTotal: expected, key: key, shopper: shopper)
    }

    /// Logs in, keeping the anonymous basket; the session is renewed (a new token, the old one
    /// ended) so a token seen before login is worth nothing after.
    private func logIn(_ form: FormVisit) async throws -> Response {
        let customer: CustomerRecord
        do {
            customer = try await login.authenticate(
                email: form.value(FormFields.email) ?? "", password: form.value(FormFields.password) ?? "",
                address: form.request.clientAddress)
        } catch LoginError.throttled {
            return form.redirect(StorePaths.login, .loginThrottled)
        } catch is LoginError {
            return form.redirect(StorePaths.login, .loginFailed)
        }
        let previous = form.shopper.customerID == nil ? form.shopper : nil
        let (token, capped) = try await sessions.logIn(customer.id, previous: previous)
        try await sessions.end(form.token)
        var response = form.redirect(StorePaths.catalog, .loggedIn(capped: capped))
        response.setCookie(WebSessions.sessionCookie(token, for: form.request, lifetime: configuration.sessionLifetime))
        return response
    }

    private func logOut(_ form: FormVisit) async throws -> Response {
        try await sessions.end(form.token)
        var response = form.redirect(StorePaths.catalog, .loggedOut)
        response.setCookie(WebSessions.endedSessionCookie(for: form.request))
        return response
    }

    // MARK: - Visits

    /// A page request's visitor, with what every page's header shows.
    private func visit(_ request: Request) async throws -> Visit {
        let visitor = try await sessions.visitor(for: request)
        let status = request.cookie(WebSessions.statusCookie).flatMap(WebStatus.init(cookieValue:))
        var basket: PricedBasket?
        var customer: CustomerRecord?
        if let shopper = visitor.shopper {
            basket = try await baskets.priced(shopper)
            if shopper.customerID != nil { customer = try await accounts.customer(of: shopper) }
        }
        let context = PageContext(
            basketCount: basket?.lines.reduce(0) { $0 + $1.quantity.value } ?? 0, customerName: customer?.firstName,
            csrfToken: visitor.csrfToken, status: status.map { message(for: $0) }, locale: configuration.locale)
        return Visit(
            request: request, shopper: visitor.shopper, basket: basket, customer: customer, status: status,
            context: context, hadStatusCookie: request.cookie(WebSessions.statusCookie) != nil)
    }

    /// Wraps a form's handler: checks the CSRF token (or, for a visitor without a session, that
    /// the form came from this store and starts their session), reads the fields, and attaches
    /// the new session's cookie to the answer.
    private func form(_ handler: @escaping @Sendable (FormVisit) async throws -> Response) -> Router.Handler {
        { request, context in
            let visitor = try await sessions.visitor(for: request)
            let fields = Self.parameters(request.formItems)
            var token: SecretToken
            var shopper: Shopper
            var newSession = false
            if let existing = visitor.token, let existingShopper = visitor.shopper {
                guard
                    WebSessions.constantTimeEqual(fields[FormFields.csrf] ?? "", WebSessions.csrfToken(for: existing))
                else { throw HTTPError.expiredForm }
                token = existing
                shopper = existingShopper
            } else {
                guard WebSessions.isSameOrigin(request) else { throw HTTPError.expiredForm }
                token = try await sessions.createAnonymous(from: request.clientAddress)
                guard let created = try await sessions.shopper(for: token) else { throw HTTPError.expiredForm }
                shopper = created
                newSession = true
            }
            var response = try await handler(
                FormVisit(
                    request: request, route: context, fields: fields, token: token, shopper: shopper))
            // A form that replaced the session (logging in or out) has set its own cookie: the
            // browser keeps the last of two, so the new visitor's session must not follow it.
            if newSession && !response.setsCookie(named: WebSessions.sessionCookie) {
                response.setCookie(
                    WebSessions.sessionCookie(token, for: request, lifetime: configuration.sessionLifetime))
            }
            response.headers["Cache-Control"] = "no-store"
            return response
        }
    }

    // MARK: - View data

    private func lineItems(_ basket: PricedBasket?) -> [BasketLineItem] {
        guard let basket else { return [] }
        let images = catalog.read { snapshot in
            Dictionary(snapshot.products.map { ($0.id, $0.imagePath) }, uniquingKeysWith: { first, _ in first })
        }
        return basket.lines.compactMap { line in
            guard let total = try? line.total() else { return nil }
            return BasketLineItem(
                productID: line.productID, title: line.title, imagePath: images[line.productID] ?? "",
                unitPrice: line.unitPrice, quantity: line.quantity.value, lineTotal: total)
        }
    }

    private func totals(_ visit: Visit) -> BasketTotals {
        if let basket = visit.basket { return BasketTotals(basket.price) }
        let zero = Money.zero(configuration.shipping.currency)
        return BasketTotals(subtotal: zero, discount: zero, shipping: zero, total: zero)
    }

    private func options(_ basket: PricedBasket) throws -> [PaymentQuote] {
        try configuration.fees.quotes(total: basket.price.total)
    }

    private func problem(_ status: WebStatus?, basket: PricedBasket) -> CheckoutProblem? {
        switch status {
        case .declined(let reason): return .declined(reason)
        case .unavailable: return .unavailable
        case .paymentInProgress: return .paymentInProgress
        case .priceChanged(let previous):
            guard let total = try? Money(amount: previous, currency: basket.price.total.currency) else { return nil }
            return .priceChanged(previousTotal: total, newTotal: basket.price.total)
        default: return nil
        }
    }

    /// The sentence the page's status says for `status`.
    private func message(for status: WebStatus) -> StatusMessage {
        func title(_ id: ProductID) -> String {
            catalog.read { $0.product(id)?.title } ?? "The product"
        }
        switch status {
        case .added(let id): return StatusMessage("Added \(title(id)) to your basket.")
        case .updated(let id): return StatusMessage("Updated the quantity of \(title(id)).")
        case .removed(let id): return StatusMessage("Removed \(title(id)) from your basket.")
        case .notEnoughStock(let id, let available):
            return StatusMessage(
                available == 0
                    ? "\(title(id)) is sold out."
                    : "Only \(available) of \(title(id)) left: the basket was not changed.",
                kind: .error)
        case .promotionApplied: return StatusMessage("Promo code applied.")
        case .promotionRemoved: return StatusMessage("Promo code removed.")
        case .promotionInvalid: return StatusMessage("That promo code cannot be used.", kind: .error)
        case .loggedIn(let capped):
            guard !capped.isEmpty else { return StatusMessage("You are logged in. Your basket is kept.") }
            return StatusMessage(
                "You are logged in. Your basket is kept; "
                    + capped.map(title).joined(separator: ", ")
                    + " went over 10, so the basket holds the most it can: 10.",
                kind: .info)
        case .loggedOut: return StatusMessage("You are logged out.")
        case .loginFailed: return StatusMessage(LoginError.invalidCredentials.message, kind: .error)
        case .loginThrottled: return StatusMessage(LoginError.throttled(retryAfter: 0).message, kind: .error)
        case .tooManyNewShoppers: return StatusMessage("Too many new visits at once. Try again soon.", kind: .error)
        case .declined(let reason): return StatusMessage(reason.explanation + " Your basket is kept.", kind: .error)
        case .unavailable:
            return StatusMessage(
                "The payment could not be confirmed. Paying again is safe: you will be charged once.", kind: .error)
        case .priceChanged: return StatusMessage("The total has changed. Please check it and pay again.", kind: .error)
        case .soldOut(let ids):
            return StatusMessage(
                "Not enough stock for: " + ids.map(title).joined(separator: ", ") + ". Your basket is kept.",
                kind: .error)
        case .paymentInProgress:
            return StatusMessage(
                "A payment for this basket is still being confirmed. Try again in a moment.", kind: .error)
        }
    }

    // MARK: - Helpers

    /// Query or form fields by name; the first of a repeated name wins.
    static func parameters(_ items: [QueryItem]) -> [String: String] {
        var fields: [String: String] = [:]
        for item in items where fields[item.name] == nil { fields[item.name] = item.value }
        return fields
    }

    /// `path` if it is a path on this store (one leading `/`, no scheme or host, no backslash),
    /// else `nil`: a form cannot send the shopper elsewhere.
    static func safeReturnPath(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), path.utf8.count <= 512,
            !path.contains("\\"), !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        return path
    }

    static func redirect(_ location: String) -> Response {
        var response = Response(status: .seeOther)
        response.headers["Location"] = location
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// A page's response: HTML, never stored by caches when it shows a visitor's own state.
    static func html(_ document: HTMLDocument, status: HTTPStatus = .ok, private isPrivate: Bool = true) -> Response {
        var response = Response.bytes(document.render(), contentType: HTMLDocument.contentType, status: status)
        response.headers["Cache-Control"] = isPrivate ? "no-store" : "no-cache"
        response.headers["Vary"] = "Cookie"
        return response
    }
}

/// A page request: the visitor's shopper, basket and customer, and the page context.
struct Visit: Sendable {
    let request: Request
    let shopper: Shopper?
    let basket: PricedBasket?
    let customer: CustomerRecord?
    let status: WebStatus?
    let context: PageContext
    let hadStatusCookie: Bool

    /// The "not found" page in the visitor's own header (their basket, their name).
    func notFound() -> Response {
        respond(StorePages.error(.notFound, context: context), status: .notFound)
    }

    /// The page, with the status cookie spent when there was one.
    func respond(_ document: HTMLDocument, status: HTTPStatus = .ok) -> Response {
        var response = WebRoutes.html(document, status: status)
        if hadStatusCookie { response.setCookie(WebSessions.spentStatusCookie(for: request)) }
        return response
    }
}

/// A form request that passed its checks: the fields, and the shopper it acts for.
struct FormVisit: Sendable {
    let request: Request
    let route: RequestContext
    let fields: [String: String]
    let token: SecretToken
    let shopper: Shopper

    func value(_ name: String) -> String? { fields[name] }

    /// The form's path parameter, typed (the product whose line it changes).
    func parameter<Value: PathParameter>(_ type: Value.Type = Value.self) throws(HTTPError) -> Value {
        try route.parameter(type)
    }

    /// The 303 to `location`, with `status` for the page there.
    func redirect(_ location: String, _ status: WebStatus?) -> Response {
        var response = WebRoutes.redirect(location)
        if let status { response.setCookie(WebSessions.statusCookie(status, for: request)) }
        return response
    }
}

/// The catalog page as a visitor without a session sees it, rendered once per catalog snapshot.
final class AnonymousCatalogPage: Sendable {
    private let cached = Locked<(generation: Int, page: PreparedResponse)?>(nil)

    func page(for generation: Int, render: () -> Response) -> PreparedResponse {
        if let hit = cached.withLock({ $0 }), hit.generation == generation { return hit.page }
        let page = PreparedResponse(render())
        cached.withLock { $0 = (generation, page) }
        return page
    }
}
