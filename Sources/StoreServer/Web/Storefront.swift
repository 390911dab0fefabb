import CheckoutKit
import HTML
import HTTPServer
import StoreCrypto
import StoreDatabase
import StoreServices
import StoreViews

/// The web storefront (docs/BEHAVIOUR.md §9.9): pages rendered by `StoreViews` from what the
/// services say, and forms that change the basket, pay, log in and out — grouped by page
/// (``CatalogPages``, ``BasketPages``, ``CheckoutPages``, ``AccountPages``) over what they all
/// share, here: who is visiting, the one gate every form passes (its CSRF token, or for a first
/// form its origin), the view data every page shows, and how a page or a redirect is answered.
/// Every form is a POST answered by a 303 redirect (POST-redirect-GET); the result of the action
/// rides a one-shot status cookie to the page it leads to, whose words are in
/// `StorefrontMessages.swift`.
struct Storefront: Sendable {
    let catalog: Catalog
    let sessions: Sessions
    let baskets: BasketService
    let accounts: AccountService
    let configuration: StoreConfiguration

    /// Registers every page and form of the storefront.
    func register(
        on routes: inout RouteTable, checkout: CheckoutService, orders: OrdersService, login: Login, clock: StoreClock
    ) {
        CatalogPages(storefront: self).register(on: &routes)
        BasketPages(storefront: self).register(on: &routes)
        CheckoutPages(storefront: self, checkout: checkout).register(on: &routes)
        AccountPages(storefront: self, orders: orders, login: login, clock: clock).register(on: &routes)
    }

    /// A page request's visitor, with what every page's header shows.
    func visit(_ request: Request) async throws -> Visit {
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
    func form(_ handler: @escaping @Sendable (FormVisit) async throws -> Response) -> Router.Handler {
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

    func lineItems(_ basket: PricedBasket?) -> [BasketLineItem] {
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

    func totals(_ visit: Visit) -> BasketTotals {
        if let basket = visit.basket { return BasketTotals(basket.price) }
        let zero = Money.zero(configuration.shipping.currency)
        return BasketTotals(subtotal: zero, discount: zero, shipping: zero, total: zero)
    }

    func options(_ basket: PricedBasket) throws -> [PaymentQuote] {
        try configuration.fees.quotes(total: basket.price.total)
    }

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
        var response = Storefront.html(document, status: status)
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
        var response = Storefront.redirect(location)
        if let status { response.setCookie(WebSessions.statusCookie(status, for: request)) }
        return response
    }
}
