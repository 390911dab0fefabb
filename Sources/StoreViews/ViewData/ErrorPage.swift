/// The store's error pages, each a friendly page in the store's layout.
public enum ErrorPage: Hashable, Sendable {
    /// 400: the request could not be read (a form or address the store did not make).
    case badRequest
    /// 404: no such page, product or order (someone else's order is one of these).
    case notFound
    /// 403: the form's CSRF token was missing or expired; trying again is safe, the basket is kept.
    case expiredForm
    /// 422: something typed looked like a card number, which the store never takes; nothing was
    /// kept.
    case cardNumberRefused
    /// 429: too many attempts or new visits from here; waiting a little and trying again works.
    case tooManyRequests
    /// 500: something failed on the store's side.
    case serverError

    /// The HTTP status to answer with.
    public var statusCode: Int {
        switch self {
        case .badRequest: 400
        case .notFound: 404
        case .expiredForm: 403
        case .cardNumberRefused: 422
        case .tooManyRequests: 429
        case .serverError: 500
        }
    }
}
