import AdminViews
import CheckoutKit
import Foundation
import HTML
import HTTPServer
import StoreAPI
import StoreDatabase
import StoreServices
import StoreViews

// The route layer's half of the one error path: what each of the store's errors answers. The
// services throw domain errors (`BasketError`, `LoginError`, `IdempotencyError`, CheckoutKit's
// `CheckoutError`); here they become `HTTPError`s, which the router hands to
// `StoreErrorResponder` to be written for the request. See docs/DESIGN.md, "One error path".

extension HTTPError {
    static let unauthorized = HTTPError(
        .unauthorized, type: "unauthorized",
        message: "A valid session is required. Create one with POST /api/sessions or log in.",
        headers: ["WWW-Authenticate": "Bearer"])
    static let loginRequired = HTTPError(
        .unauthorized, type: "login_required", message: "Log in to see your profile.",
        headers: ["WWW-Authenticate": "Bearer"])
    static let productNotFound = HTTPError.notFound("There is no such product.")
    /// A storefront form without a valid CSRF token (or, without a session, from another site).
    static let expiredForm = HTTPError(
        .forbidden, type: "expired_form", message: "This form has expired. Please try again — your basket is kept.")
    static let categoryNotFound = HTTPError.notFound("There is no such category.")
    /// A back-office route without a staff session (a customer's token is not one).
    static let staffSessionRequired = HTTPError(
        .unauthorized, type: "unauthorized",
        message: "A staff session is required. Sign in with POST /api/admin/sessions.",
        headers: ["WWW-Authenticate": "Bearer"])
    /// A back-office route the caller's role does not allow.
    static let forbidden = HTTPError(.forbidden, type: "forbidden", message: "Your role does not allow this.")
    static let imageNotFound = HTTPError.notFound("There is no such image.")
    static let orderNotFound = HTTPError.notFound("There is no such order.")
    static let userNotFound = HTTPError.notFound("There is no such user.")
    static let idempotencyKeyRequired = HTTPError(
        .badRequest, type: "idempotency_key_required",
        message: "Send an Idempotency-Key header: one new key per payment attempt, reused on retries.")
    static let invalidIdempotencyKey = HTTPError(
        .badRequest, type: "invalid_idempotency_key",
        message: "The Idempotency-Key must be 1 to 255 visible ASCII characters.")

    static func invalidQuantity(field: String = "quantity") -> HTTPError {
        HTTPError(
            .unprocessableContent, type: "invalid_quantity",
            message: "The quantity must be a whole number from 1 to 10.", field: field)
    }

    static func insufficientStock(available: Int, field: String? = nil) -> HTTPError {
        HTTPError(
            .conflict, type: "out_of_stock",
            message: available == 0 ? "This product is out of stock." : "Only \(available) left in stock.",
            field: field)
    }

    static func invalidBody(_ message: String, field: String) -> HTTPError {
        HTTPError(.unprocessableContent, type: "invalid_body", message: message, field: field)
    }
}

extension CheckoutError: HTTPErrorConvertible {
    public var httpError: HTTPError {
        var error: HTTPError
        switch self {
        case .invalidAmount, .emptyBasket, .unknownPaymentMethod, .invalidCardToken, .cardNumberRejected:
            error = HTTPError(.unprocessableContent, type: code, message: message)
        case .declined(let reason):
            error = HTTPError(HTTPStatus(code: 402), type: code, message: message, reason: reason.rawValue)
        case .unavailable:
            error = HTTPError(.serviceUnavailable, type: code, message: message)
        case .priceChanged, .outOfStock, .promotionUnavailable:
            error = HTTPError(.conflict, type: code, message: message)
        case .paymentInProgress:
            error = HTTPError(.conflict, type: code, message: message, headers: ["Retry-After": "1"])
        }
        return error
    }
}

extension BasketError: HTTPErrorConvertible {
    package var httpError: HTTPError {
        switch self {
        case .unknownProduct: .productNotFound
        case .insufficientStock(let available): .insufficientStock(available: available)
        case .invalidPromotion:
            HTTPError(
                .unprocessableContent, type: "invalid_promotion", message: "That code isn't valid.", field: "code")
        }
    }
}

extension SessionError: HTTPErrorConvertible {
    package var httpError: HTTPError {
        switch self {
        case .tooManyNewShoppers(let retryAfter):
            HTTPError(
                .tooManyRequests, type: "too_many_requests",
                message: "Too many new sessions from this address. Try again in a moment, or reuse a session token.",
                headers: ["Retry-After": String(max(1, Int(retryAfter.rounded(.up))))])
        }
    }
}

extension LoginError: HTTPErrorConvertible {
    package var httpError: HTTPError {
        switch self {
        case .invalidEmail:
            HTTPError(.unprocessableContent, type: "invalid_body", message: message)
        case .invalidCredentials:
            HTTPError(.unauthorized, type: "invalid_credentials", message: message)
        case .throttled(let retryAfter):
            HTTPError(
                .tooManyRequests, type: "too_many_attempts", message: message,
                headers: ["Retry-After": String(Int(retryAfter.rounded(.up)))])
        }
    }
}

extension IdempotencyError: HTTPErrorConvertible {
    package var httpError: HTTPError {
        switch self {
        case .mismatch(let field):
            HTTPError(
                .unprocessableContent, type: "idempotency_mismatch",
                message: "This idempotency key was used with a different request. Use a new key for a new payment.",
                field: field)
        case .inProgress:
            HTTPError(
                .conflict, type: "idempotency_in_progress",
                message: "A payment with this idempotency key is still being processed. Retry in a moment.",
                headers: ["Retry-After": "1"])
        }
    }
}

/// Writes the store's errors: `{"error": {"type", "message", "reason"?, "field"?}}` (never cached),
/// with `WWW-Authenticate: Bearer` on a 401; a friendly page for the storefront's addresses.
struct StoreErrorResponder: Sendable {
    /// The face of each route pattern.
    private let faces: [String: Face]
    /// The first path segments of the API's routes, for paths no route matched.
    private let apiFirstSegments: Set<Substring>

    init(routes: RouteTable) {
        var faces: [String: Face] = [:]
        for entry in routes.entries { faces[entry.pattern] = entry.face }
        self.faces = faces
        apiFirstSegments = routes.apiFirstSegments
    }

    /// The API's JSON error, or for the storefront's addresses a friendly page in the store's layout.
    func respond(to error: HTTPError, _ request: Request, _ context: RequestContext) -> Response {
        switch face(of: request, context) {
        case .storefront: return Self.page(for: error)
        case .backOffice: return Self.backOfficePage(for: error)
        case .api: break
        }
        var response = Response.bytes(
            Self.jsonBody(of: error), contentType: "application/json; charset=utf-8", status: error.status)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        if error.status == .unauthorized, !error.headers.contains("WWW-Authenticate") {
            response.headers.replaceOrAdd(name: "WWW-Authenticate", value: "Bearer")
        }
        return response
    }

    /// The face a request is answered by: its route's, or when none matched, the API's for a path
    /// under one of the API's first segments (`/api/…`, `/images/…`, the Fake-Store routes'), else
    /// the storefront's.
    func face(of request: Request, _ context: RequestContext) -> Face {
        if let route = context.route, let face = faces[route] { return face }
        let first = request.path.split(separator: "/", maxSplits: 1).first ?? ""
        return apiFirstSegments.contains(first) ? .api : .storefront
    }

    /// The error page for `error`: not found, an expired form, a refused card number, too many
    /// attempts, an unreadable request, or a fault.
    static func page(for error: HTTPError) -> Response {
        let page: ErrorPage
        switch error.status.code {
        case 404, 405: page = .notFound
        case 422 where error.type == CheckoutError.cardNumberRejected.code: page = .cardNumberRefused
        case 429: page = .tooManyRequests
        case 400, 413, 422, 431, 501: page = .badRequest
        case 500...: page = .serverError
        default: page = .expiredForm
        }
        let document = StorePages.error(page, context: PageContext(csrfToken: ""))
        var response = Response.bytes(document.render(), contentType: HTMLDocument.contentType, status: error.status)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return response
    }

    /// The back office's error page for `error`, without navigation (the handler that knew who was
    /// asking did not answer).
    static func backOfficePage(for error: HTTPError) -> Response {
        let page: AdminErrorPage
        switch error.status.code {
        case 404, 405: page = .notFound
        case 403: page = .expiredForm
        case 400, 409, 413, 415, 422, 429, 431, 501: page = .unprocessable(message: error.message)
        default: page = .serverError
        }
        let document = AdminPages.error(page, context: AdminContext(staff: nil, csrfToken: ""))
        var response = Response.bytes(document.render(), contentType: HTMLDocument.contentType, status: error.status)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        for field in error.headers where field.name.lowercased() == "retry-after" {
            response.headers.replaceOrAdd(name: field.name, value: field.value)
        }
        return response
    }

    /// The error's JSON body, as answered and as stored to replay.
    static func jsonBody(of error: HTTPError) -> [UInt8] {
        let body = ErrorBody(type: error.type, message: error.message, reason: error.reason, field: error.field)
        return (try? StoreJSON.encoder.encode(body)).map(Array.init)
            ?? Array(#"{"error":{"type":"internal_error","message":"An internal error occurred."}}"#.utf8)
    }
}
