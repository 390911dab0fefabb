import CheckoutKit
import HTTPServer
import StoreDatabase
import StoreServices
import StoreViews

/// The shopper's own pages: orders and receipts, logging in and out, the profile.
struct AccountPages: Sendable {
    let storefront: Storefront
    let orders: OrdersService
    let login: Login
    let clock: StoreClock

    func register(on routes: inout RouteTable) {
        routes.page(.get, StorePaths.orders) { request, _ in try await ordersPage(request) }
        routes.page(.get, StorePaths.orderPattern) { request, context in try await receiptPage(request, context) }
        routes.page(.get, StorePaths.login) { request, _ in try await loginPage(request) }
        routes.page(.get, StorePaths.profile) { request, _ in try await profilePage(request) }
        routes.page(.post, StorePaths.login, storefront.form(logIn))
        routes.page(.post, StorePaths.logout, storefront.form(logOut))
    }

    private func ordersPage(_ request: Request) async throws -> Response {
        let visit = try await storefront.visit(request)
        var list: [ShopperOrder] = []
        if let shopper = visit.shopper { list = try await orders.orders(of: shopper) }
        return visit.respond(
            StorePages.orders(OrdersPage(orders: list.map(OrdersPage.Entry.init)), context: visit.context))
    }

    private func receiptPage(_ request: Request, _ context: RequestContext) async throws -> Response {
        let visit = try await storefront.visit(request)
        guard let shopper = visit.shopper, let id = try? context.parameter(OrderID.self),
            let order = try await orders.order(id, of: shopper)
        else { return visit.notFound() }
        return visit.respond(StorePages.receipt(OrderReceipt(order), context: visit.context))
    }

    private func loginPage(_ request: Request) async throws -> Response {
        let visit = try await storefront.visit(request)
        if visit.customer != nil { return Storefront.redirect(StorePaths.profile) }
        var page = LoginPage()
        switch visit.status {
        case .loginFailed: page.error = LoginError.invalidCredentials.message
        case .loginThrottled: page.error = LoginError.throttled(retryAfter: 0).message
        default: break
        }
        return visit.respond(StorePages.login(page, context: visit.context))
    }

    private func profilePage(_ request: Request) async throws -> Response {
        let visit = try await storefront.visit(request)
        guard let customer = visit.customer else { return Storefront.redirect(StorePaths.login) }
        let page = ProfilePage(
            firstName: customer.firstName, lastName: customer.lastName, email: customer.email,
            tier: customer.subscription.tier(at: clock.now()))
        return visit.respond(StorePages.profile(page, context: visit.context))
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
        let (token, capped) = try await storefront.sessions.logIn(customer.id, previous: previous)
        try await storefront.sessions.end(form.token)
        var response = form.redirect(StorePaths.catalog, .loggedIn(capped: capped))
        response.setCookie(
            WebSessions.sessionCookie(token, for: form.request, lifetime: storefront.configuration.sessionLifetime))
        return response
    }

    private func logOut(_ form: FormVisit) async throws -> Response {
        try await storefront.sessions.end(form.token)
        var response = form.redirect(StorePaths.catalog, .loggedOut)
        response.setCookie(WebSessions.endedSessionCookie(for: form.request))
        return response
    }
}
