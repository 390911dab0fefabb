import CheckoutKit
import HTTPServer
import StoreAPI
import StoreServices
import StoreViews

/// Refuses, with 422, any request that holds something that looks like a card number in what the
/// store reads of it — before any handler sees it, so it is never stored, logged or echoed (in a
/// page, a cookie or a `Location`):
/// - the path and every query parameter, as decoded (`+` and `%XX`);
/// - the `Idempotency-Key` header, which the store keeps;
/// - the body, as text and as a handler will read it (``CardNumberScan``); a JSON value the guard
///   cannot decode (`1e999999999`) is refused with 400 `malformed_json`, never skipped.
///
/// Login bodies are exempt: a password is never stored or logged, and refusing passwords that
/// happen to look like card numbers would lock people out.
struct CardNumberGuard: Middleware {
    static let exempt: Set<String> = [
        Endpoints.login.pattern, FakeStoreEndpoints.login.pattern, StorePaths.login,
        AdminEndpoints.createSession.pattern,
    ]

    /// Routes whose bodies are files — a catalog CSV, an image — and never JSON or a form: judged
    /// as text alone. (Taken for JSON, a CSV that opens with a quote and has a bare decimal such as
    /// `12.50` would be refused as unreadable JSON.)
    static let files: Set<String> = [
        AdminEndpoints.importCatalog.pattern, AdminEndpoints.uploadProductImage.pattern,
    ]

    func handle(_ request: Request, context: RequestContext, next: Responder) async throws -> Response {
        try Self.check(request, route: context.route)
        return try await next(request, context)
    }

    /// Throws ``CheckoutKit/CheckoutError/cardNumberRejected`` when `request` holds a card number
    /// in anything the store reads, and 400 `malformed_json` for a JSON body with a value that
    /// cannot be decoded.
    static func check(_ request: Request, route: String?) throws {
        if CardNumberDetector.containsCardNumber(request.path) { throw CheckoutError.cardNumberRejected }
        for item in request.queryItems
        where CardNumberDetector.containsCardNumber(item.name) || CardNumberDetector.containsCardNumber(item.value) {
            throw CheckoutError.cardNumberRejected
        }
        if let key = request.headers["Idempotency-Key"], CardNumberDetector.containsCardNumber(key) {
            throw CheckoutError.cardNumberRejected
        }
        guard !request.body.isEmpty, !exempt.contains(route ?? request.path) else { return }
        if files.contains(route ?? request.path) {
            if CardNumberDetector.containsCardNumber(String(decoding: request.body, as: UTF8.self)) {
                throw CheckoutError.cardNumberRejected
            }
            return
        }
        switch CardNumberScan.scan(body: request.body) {
        case .clean: return
        case .cardNumber: throw CheckoutError.cardNumberRejected
        case .unreadableJSON:
            throw HTTPError(
                .badRequest, type: "malformed_json", message: "The request body holds a value that cannot be read.")
        }
    }
}
