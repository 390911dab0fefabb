import CheckoutKit
import HTTPServer
import StoreAPI

/// An error answer of the store's API: a status and the JSON error body (SPEC §9).
struct APIError: Error, Sendable {
    let status: HTTPStatus
    let body: ErrorBody
    var headers: HTTPHeaders = [:]

    init(_ status: HTTPStatus, type: String, message: String, reason: String? = nil, field: String? = nil) {
        self.status = status
        self.body = ErrorBody(type: type, message: message, reason: reason, field: field)
    }

    var response: Response {
        var headers = self.headers
        if status == .unauthorized, !headers.contains("WWW-Authenticate") {
            headers.replaceOrAdd(name: "WWW-Authenticate", value: "Bearer")
        }
        var response =
            (try? Response.json(body, status: status, encoder: StoreJSON.encoder))
            ?? Response.text(body.error.message, status: status)
        for field in headers { response.headers.replaceOrAdd(name: field.name, value: field.value) }
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return response
    }

    static let unauthorized = APIError(
        .unauthorized, type: "unauthorized",
        message: "A valid session is required. Create one with POST /api/sessions or log in.")
    static let loginRequired = APIError(
        .unauthorized, type: "login_required", message: "Log in to see your profile.")
    static let invalidCredentials = APIError(
        .unauthorized, type: "invalid_credentials", message: "The email or password is incorrect.")
    static let productNotFound = APIError(.notFound, type: "not_found", message: "There is no such product.")
    static let categoryNotFound = APIError(.notFound, type: "not_found", message: "There is no such category.")
    static let orderNotFound = APIError(.notFound, type: "not_found", message: "There is no such order.")
    static let userNotFound = APIError(.notFound, type: "not_found", message: "There is no such user.")
    static let invalidPromotion = APIError(
        .unprocessableContent, type: "invalid_promotion", message: "That code isn't valid.", field: "code")

    static func invalidQuantity(field: String = "quantity") -> APIError {
        APIError(
            .unprocessableContent, type: "invalid_quantity",
            message: "The quantity must be a whole number from 1 to 10.", field: field)
    }

    static func insufficientStock(available: Int, field: String? = nil) -> APIError {
        APIError(
            .conflict, type: "out_of_stock",
            message: available == 0 ? "This product is out of stock." : "Only \(available) left in stock.",
            field: field)
    }

    /// The answer for a checkout failure.
    init(_ error: CheckoutError) {
        let status: HTTPStatus
        var reason: String?
        switch error {
        case .invalidAmount, .emptyBasket, .unknownPaymentMethod, .invalidCardToken, .cardNumberRejected:
            status = .unprocessableContent
        case .declined(let declineReason):
            status = HTTPStatus(code: 402)
            reason = declineReason.rawValue
        case .unavailable:
            status = HTTPStatus(code: 503)
        case .priceChanged, .outOfStock, .promotionUnavailable, .paymentInProgress:
            status = .conflict
        }
        self.init(status, type: error.code, message: error.message, reason: reason)
        if error == .paymentInProgress { headers = ["Retry-After": "1"] }
    }
}

/// Turns the store's typed errors into their API answers, for every async route.
struct ErrorMiddleware: Middleware {
    func handle(_ request: Request, context: RequestContext, next: Responder) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response
        } catch let error as CheckoutError {
            return APIError(error).response
        }
    }
}
