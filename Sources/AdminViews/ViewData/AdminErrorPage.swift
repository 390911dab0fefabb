import CheckoutKit

/// The back office's error pages, each in the back office's layout.
public enum AdminErrorPage: Hashable, Sendable {
    /// 403: the viewer's role does not open this page.
    case forbidden(role: StaffRole)
    /// 403: the form's CSRF token was missing or expired; trying again is safe.
    case expiredForm
    /// 404: no such page, product, order, customer or member of staff.
    case notFound
    /// 409: the order or product moved while the page was open; nothing was done.
    case conflict(Conflict)
    /// 422: the request could not be used; `message` says why, if there is more to say.
    case unprocessable(message: String?)
    /// 500: something failed on the store's side.
    case serverError

    /// What moved, and where to look at it again.
    public enum Conflict: Hashable, Sendable {
        /// The order moved on: `now` is its fulfilment status now.
        case order(id: String, now: FulfilmentStatus)
        /// The product was changed or its stock moved.
        case product(id: ProductID, title: String)
    }

    /// The HTTP status to answer with.
    public var statusCode: Int {
        switch self {
        case .forbidden, .expiredForm: 403
        case .notFound: 404
        case .conflict: 409
        case .unprocessable: 422
        case .serverError: 500
        }
    }
}
