import AdminViews
import CheckoutKit
import Foundation
import HTML
import HTTPServer
import StoreCrypto
import StoreDatabase
import StoreServices

/// The back office's cookies (docs/BEHAVIOUR.md §13.2): the staff session, apart from a shopper's
/// and sent only to `/admin` (`HttpOnly; SameSite=Strict; Path=/admin`), and the one-shot status of
/// the last action.
enum BackOfficeCookies {
    static let session = "store_staff"
    static let status = "store_admin_status"
    static let path = "/admin"

    /// The staff session cookie for `token`, kept by the browser as long as the session may last.
    static func session(_ token: SecretToken, for request: Request) -> Cookie {
        Cookie(
            name: session, value: token.text, path: path, maxAge: Int(StaffService.sessionLimit), httpOnly: true,
            secure: WebSessions.isTLS(request), sameSite: .strict)
    }

    /// A cookie that removes the staff session cookie.
    static func endedSession(for request: Request) -> Cookie {
        Cookie(
            name: session, value: "", path: path, maxAge: 0, httpOnly: true, secure: WebSessions.isTLS(request),
            sameSite: .strict)
    }

    static func status(_ status: AdminStatus, for request: Request) -> Cookie {
        Cookie(
            name: Self.status, value: status.cookieValue, path: path, maxAge: 60, httpOnly: true,
            secure: WebSessions.isTLS(request), sameSite: .strict)
    }

    static func spentStatus(for request: Request) -> Cookie {
        Cookie(
            name: status, value: "", path: path, maxAge: 0, httpOnly: true, secure: WebSessions.isTLS(request),
            sameSite: .strict)
    }

    /// The CSRF token of a staff session's forms: derived from the session's token (bound to it,
    /// nothing stored), apart from a shopper's by its purpose.
    static func csrfToken(for token: SecretToken) -> String {
        WebSessions.csrfToken(for: token, purpose: "admin-csrf")
    }
}

/// Admits a request to a back-office page (docs/BEHAVIOUR.md §13.2): the staff session's cookie
/// names a member of staff (else the sign-in page, which returns here after), their role has the
/// page's permission (else a 403 page), and a form carries the session's CSRF token (else a 403
/// "expired form" page). Hiding a link is never the protection: every page and form passes here.
struct BackOfficeGate: Sendable {
    enum Admission: Sendable {
        case admitted(StaffPage)
        case refused(Response)
    }

    let staff: StaffService
    let shopName: String
    let locale: Locale

    func admit(_ request: Request, _ route: RequestContext, permission: Permission?) async throws -> Admission {
        let hadSessionCookie = request.cookie(BackOfficeCookies.session) != nil
        guard let text = request.cookie(BackOfficeCookies.session), let token = SecretToken(text),
            let member = try await staff.staff(for: token)
        else {
            // A page asked for is returned to after signing in; a form's fields are not kept.
            let next = request.method == .get ? BackOfficeLinks.safeNext(request.target) : nil
            var response = BackOffice.redirect(AdminPaths.login(next: next))
            if hadSessionCookie {
                response.setCookie(BackOfficeCookies.endedSession(for: request))
                response.setCookie(BackOfficeCookies.status(.sessionEnded, for: request))
            }
            return .refused(response)
        }
        let statusCookie = request.cookie(BackOfficeCookies.status)
        let context = AdminContext(
            shopName: shopName, staff: AdminContext.Staff(email: member.email, role: member.role),
            csrfToken: BackOfficeCookies.csrfToken(for: token),
            status: statusCookie.flatMap(AdminStatus.init(cookieValue:))?.message(locale: locale), locale: locale)
        var page = StaffPage(
            request: request, route: route, staff: member, token: token, context: context, fields: [:], files: [],
            hadStatusCookie: statusCookie != nil)
        if let permission, !member.role.may(permission) {
            return .refused(page.error(.forbidden(role: member.role)))
        }
        if request.method == .post {
            if request.headers["Content-Type"]?.lowercased().hasPrefix("multipart/") == true {
                for part in try request.multipartParts() {
                    if part.filename != nil {
                        page.files.append(part)
                    } else if page.fields[part.name] == nil {
                        page.fields[part.name] = String(decoding: part.body, as: UTF8.self)
                    }
                }
            } else {
                page.fields = Storefront.parameters(request.formItems)
            }
            guard WebSessions.constantTimeEqual(page.fields[AdminFormFields.csrf] ?? "", context.csrfToken) else {
                return .refused(page.error(.expiredForm))
            }
        }
        return .admitted(page)
    }
}

/// A back-office request the gate admitted: who, the page's context, and a form's fields.
struct StaffPage: Sendable {
    let request: Request
    let route: RequestContext
    let staff: StaffRecord
    /// The session's token, to end it.
    let token: SecretToken
    let context: AdminContext
    /// A form's fields by name (the first of a repeated name), from an urlencoded or multipart body.
    fileprivate(set) var fields: [String: String]
    /// A multipart form's file fields.
    fileprivate(set) var files: [MultipartPart]
    let hadStatusCookie: Bool

    func value(_ name: String) -> String? { fields[name] }

    /// A form's field, empty when it was not sent.
    func text(_ name: String) -> String { fields[name] ?? "" }

    /// The file sent in the field `name`, if one was chosen.
    func file(_ name: String) -> MultipartPart? {
        files.first { $0.name == name && !($0.filename ?? "").isEmpty }
    }

    /// The route's path parameter, typed.
    func parameter<Value: PathParameter>(_ type: Value.Type = Value.self) throws(HTTPError) -> Value {
        try route.parameter(type)
    }

    /// A query parameter of the page's address.
    func query(_ name: String) -> String? { request.query(name) }

    /// The page, with the status cookie spent when there was one.
    func respond(_ document: HTMLDocument, status: HTTPStatus = .ok) -> Response {
        var response = Storefront.html(document, status: status)
        if hadStatusCookie { response.setCookie(BackOfficeCookies.spentStatus(for: request)) }
        return response
    }

    /// The 303 to `location` (POST-redirect-GET), with `status` for the page there.
    func redirect(_ location: String, _ status: AdminStatus? = nil) -> Response {
        var response = BackOffice.redirect(location)
        if let status { response.setCookie(BackOfficeCookies.status(status, for: request)) }
        return response
    }

    /// An error page in the back office's layout, with the member's navigation.
    func error(_ page: AdminErrorPage) -> Response {
        respond(AdminPages.error(page, context: context), status: HTTPStatus(code: page.statusCode))
    }
}

/// Addresses the back office sends people to.
enum BackOfficeLinks {
    /// `target` (a path and query) when it is a back-office page to return to after signing in:
    /// under `/admin/`, not the sign-in form itself, no scheme or host; else `nil`.
    static func safeNext(_ target: String?) -> String? {
        guard let path = Storefront.safeReturnPath(target),
            path == AdminPaths.dashboard || path.hasPrefix("/admin/") || path.hasPrefix("/admin?"),
            !path.hasPrefix(AdminPaths.login), !path.hasPrefix(AdminPaths.logout),
            !path.hasPrefix(AdminPaths.stylesheet)
        else { return nil }
        return path
    }
}
