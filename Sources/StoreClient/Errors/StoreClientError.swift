import CheckoutKit

/// Every way a request to the store can fail, as the app sees it (docs/BEHAVIOUR.md §9, §10).
///
/// A client maps every answer to one of these and never crashes on what it receives:
///
/// | answer | error |
/// |---|---|
/// | 2xx | the endpoint's answer — or ``unexpectedAnswer(status:detail:)`` when the body is not it |
/// | 400 | ``invalid(type:message:field:)`` |
/// | 401 | ``unauthorized(message:)`` |
/// | 402 `declined` | ``declined(reason:message:)`` |
/// | 404 | ``notFound(message:)`` |
/// | 409 `price_changed`, `out_of_stock` | ``priceChanged(message:)``, ``outOfStock(message:)`` |
/// | 409 `idempotency_in_progress`, `payment_in_progress` | ``idempotencyInProgress``, ``paymentInProgress`` |
/// | 409, any other type | ``conflict(type:message:)`` |
/// | 413, 422 | ``invalid(type:message:field:)`` — but 422 `idempotency_mismatch` is ``idempotencyMismatch(field:)`` |
/// | 429 (with `Retry-After`) | ``tooManyRequests(message:retryAfter:)`` |
/// | 502, 503, 504, a timeout, no connection, a connection closed early | ``unavailable`` |
/// | anything else: HTML, truncated JSON, a body that is not the endpoint's type, another status | ``unexpectedAnswer(status:detail:)`` |
///
/// 400, 401, 402, 404, 409, 413 and 422 are told apart by the store's error body; without it (a
/// proxy's HTML page, a cut-off body) they are ``unexpectedAnswer(status:detail:)`` too.
/// ``init(response:)`` and ``init(_:)`` implement this table.
///
/// The `message` carried by a case is the error body's sentence for people; ``message`` is what
/// to show.
public enum StoreClientError: Error, Hashable, Sendable {
    /// 401: no session or an expired one, wrong credentials, or a customer's page asked for by an
    /// anonymous shopper.
    case unauthorized(message: String)
    /// 402: the payment provider declined the payment. Final for its idempotency key.
    case declined(reason: DeclineReason, message: String)
    /// 409 `price_changed`: the basket's total is no longer the one the shopper confirmed. Nothing
    /// was charged.
    case priceChanged(message: String)
    /// 409 `out_of_stock`: not enough units left. Nothing was charged.
    case outOfStock(message: String)
    /// 409 `idempotency_in_progress`: a request with this key is still running. Wait, then send the
    /// same request with the same key again.
    case idempotencyInProgress
    /// 409 `payment_in_progress`: another payment of this basket is unresolved; nothing was charged
    /// by this request. Wait, then retry.
    case paymentInProgress
    /// 409 of another type, such as `promotion_unavailable` or `payment_expired`. Nothing was charged.
    case conflict(type: String, message: String)
    /// 422 `idempotency_mismatch`: the key was used before with a different request (`field` differs).
    case idempotencyMismatch(field: String?)
    /// 400, 413 or 422: the request was refused as it stands — `type` is the error's code
    /// (`invalid_promotion`, `invalid_quantity`, `empty_basket`…), `field` the request field concerned.
    case invalid(type: String, message: String, field: String?)
    /// 404: no such product, category or order (or not the shopper's).
    case notFound(message: String)
    /// 429: too many attempts (logging in, new sessions); try again after `retryAfter` when the
    /// store said how long (its `Retry-After`).
    case tooManyRequests(message: String, retryAfter: Duration?)
    /// 503, a timeout or a lost connection: the store could not be reached or could not confirm.
    /// For a payment the outcome is unknown and the retry must reuse the key.
    case unavailable
    /// An answer the endpoint never gives: an HTML page, truncated or malformed JSON, an
    /// unexpected status. `detail` is for logs and never holds personal data.
    case unexpectedAnswer(status: Int?, detail: String)
}

extension StoreClientError {
    /// What to tell the shopper, in English.
    public var message: String {
        switch self {
        case .unauthorized(let message), .declined(_, let message), .priceChanged(let message),
            .outOfStock(let message), .conflict(_, let message), .invalid(_, let message, _),
            .notFound(let message), .tooManyRequests(let message, _):
            message
        case .idempotencyInProgress, .paymentInProgress:
            "Your payment is still being processed. Try again in a moment — you won't be charged twice."
        case .idempotencyMismatch:
            "This payment was started with different details. Please check your basket and pay again."
        case .unavailable:
            "The store can't be reached right now. Check your connection and try again."
        case .unexpectedAnswer:
            "Something went wrong talking to the store. Please try again."
        }
    }

    /// Whether, after this answer to a payment, nobody knows if the payment went through — so the
    /// retry must send the same idempotency key (docs/BEHAVIOUR.md §5). A timeout, `unavailable`, an answer that
    /// could not be read, or a request still in progress.
    public var isOutcomeUnknown: Bool {
        switch self {
        case .unavailable, .unexpectedAnswer, .idempotencyInProgress, .paymentInProgress:
            true
        case .unauthorized, .declined, .priceChanged, .outOfStock, .conflict, .idempotencyMismatch, .invalid,
            .notFound, .tooManyRequests:
            false
        }
    }

    /// What to tell the shopper when this is the answer to a payment: a lost or unreadable answer
    /// reads "We couldn't confirm the payment. Retrying is safe — you won't be charged twice."
    public var paymentMessage: String {
        switch self {
        case .unavailable, .unexpectedAnswer: CheckoutError.unavailable.message
        default: message
        }
    }
}
