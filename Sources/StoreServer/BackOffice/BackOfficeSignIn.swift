import AdminViews
import CheckoutKit
import Foundation
import HTTPServer
import StoreCrypto
import StoreServices

/// Signing in and out of the back office (docs/BEHAVIOUR.md §13.2): `/admin/login` (**Email**,
/// **Password**, **Log in**) and **Log out**. A sign-in starts a new staff session (never one the
/// browser brought), throttled and audited like the API's.
struct BackOfficeSignIn: Sendable {
    let staff: StaffService
    let gate: BackOfficeGate

    func register(on routes: inout RouteTable) {
        routes.openBackOfficePage(.get, AdminPaths.login, .async { request, _ in try await form(request) })
        routes.openBackOfficePage(.post, AdminPaths.login, .async { request, _ in try await signIn(request) })
        routes.staffPage(.post, AdminPaths.logout, nil) { page in
            try await staff.end(page.token)
            var response = page.redirect(AdminPaths.login, .loggedOut)
            response.setCookie(BackOfficeCookies.endedSession(for: page.request))
            return response
        }
    }

    /// The sign-in form; a member of staff already signed in goes on to where they were going.
    private func form(_ request: Request) async throws -> Response {
        let next = BackOfficeLinks.safeNext(request.query(AdminFormFields.next))
        if let text = request.cookie(BackOfficeCookies.session), let token = SecretToken(text),
            try await staff.staff(for: token) != nil
        {
            return BackOffice.redirect(next ?? AdminPaths.dashboard)
        }
        let status = request.cookie(BackOfficeCookies.status).flatMap(AdminStatus.init(cookieValue:))
        var response = page(AdminLoginPage(next: next), status: status, request: request, code: .ok)
        if request.cookie(BackOfficeCookies.status) != nil {
            response.setCookie(BackOfficeCookies.spentStatus(for: request))
        }
        return response
    }

    /// **Log in**: a new staff session and its cookie, then the page asked for or the dashboard.
    private func signIn(_ request: Request) async throws -> Response {
        // No session yet, so no CSRF token: the form must come from this store's own page.
        guard WebSessions.isSameOrigin(request) else {
            return page(AdminLoginPage(), status: nil, request: request, code: .forbidden, expired: true)
        }
        let fields = Storefront.parameters(request.formItems)
        let email = fields[AdminFormFields.email] ?? ""
        let next = BackOfficeLinks.safeNext(fields[AdminFormFields.next])
        do {
            let (token, _) = try await staff.signIn(
                email: email, password: fields[AdminFormFields.password] ?? "", address: request.clientAddress)
            var response = BackOffice.redirect(next ?? AdminPaths.dashboard)
            response.setCookie(BackOfficeCookies.session(token, for: request))
            return response
        } catch LoginError.invalidCredentials, LoginError.invalidEmail {
            let typed = CardNumberDetector.containsCardNumber(email) ? "" : String(email.prefix(254))
            return page(
                AdminLoginPage(email: typed, problem: .wrongCredentials, next: next), status: nil, request: request,
                code: .unauthorized)
        } catch LoginError.throttled(let retryAfter) {
            let seconds = max(1, Int(retryAfter.rounded(.up)))
            var response = page(
                AdminLoginPage(problem: .tooManyAttempts(retryAfterSeconds: seconds), next: next), status: nil,
                request: request, code: .tooManyRequests)
            response.headers["Retry-After"] = String(seconds)
            return response
        }
    }

    private func page(
        _ login: AdminLoginPage, status: AdminStatus?, request: Request, code: HTTPStatus, expired: Bool = false
    ) -> Response {
        let context = AdminContext(
            shopName: gate.shopName, staff: nil, csrfToken: "", status: status?.message(locale: gate.locale),
            locale: gate.locale)
        let document =
            expired ? AdminPages.error(.expiredForm, context: context) : AdminPages.login(login, context: context)
        return Storefront.html(document, status: code)
    }
}
