import CheckoutKit
import HTTPServer

/// Refuses, with 422, any request whose body or idempotency key holds something that looks like a
/// card number — before any handler sees it, so it is never stored, logged or echoed.
///
/// Login bodies are exempt: a password is never stored or logged, and refusing passwords that
/// happen to be 13–19 Luhn-valid digits would lock people out.
struct CardNumberGuard: Middleware {
    static let exempt: Set<String> = ["/api/login", "/auth/login"]

    func handle(_ request: Request, context: RequestContext, next: Responder) async throws -> Response {
        if !request.body.isEmpty, !Self.exempt.contains(context.route ?? request.path),
            CardNumberDetector.containsCardNumber(String(decoding: request.body, as: UTF8.self))
        {
            throw APIError(CheckoutError.cardNumberRejected)
        }
        if let key = request.headers["Idempotency-Key"], CardNumberDetector.containsCardNumber(key) {
            throw APIError(CheckoutError.cardNumberRejected)
        }
        return try await next(request, context)
    }
}
