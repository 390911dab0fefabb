/// A friendly error page in the store's layout, never raw JSON.
public enum ErrorPage: Hashable, Sendable {
    /// 404: no such page, product or order (someone else's order is one of these).
    case notFound
    /// 403: the form's CSRF token was missing or expired; trying again is safe, the basket is kept.
    case expiredForm
    /// 500: something failed on the store's side.
    case serverError

    /// The HTTP status to answer with.
    public var statusCode: Int {
        switch self {
        case .notFound: 404
        case .expiredForm: 403
        case .serverError: 500
        }
    }
}
