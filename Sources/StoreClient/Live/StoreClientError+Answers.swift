import CheckoutKit
import Foundation
import StoreAPI

extension StoreClientError {
    /// The error an answer other than a success means, by the table on ``StoreClientError``.
    ///
    /// The store's answers carry `{"error": {"type", "message", "reason"?, "field"?}}`; a status
    /// whose case depends on that body (400, 401, 402, 404, 409, 413, 422) without it — an HTML
    /// page, truncated JSON, nothing — is ``unexpectedAnswer(status:detail:)``. 429 and 502–504
    /// need no body: a proxy in front of the store may answer them itself.
    public init(response: TransportResponse) {
        let status = response.status
        let detail = try? StoreJSON.decoder.decode(ErrorBody.self, from: Data(response.body)).error
        switch status {
        case 502...504:
            self = .unavailable
            return
        case 429:
            self = .tooManyRequests(
                message: detail?.message ?? "Too many attempts. Try again in a moment.",
                retryAfter: Self.retryAfter(response.headers["Retry-After"]))
            return
        default:
            break
        }
        guard let detail else {
            self = .unexpectedAnswer(status: status, detail: "a \(status) answer without the store's error body")
            return
        }
        switch status {
        case 400, 413:
            self = .invalid(type: detail.type, message: detail.message, field: detail.field)
        case 401:
            self = .unauthorized(message: detail.message)
        case 402 where detail.type == "declined":
            self = .declined(reason: DeclineReason(rawValue: detail.reason ?? ""), message: detail.message)
        case 404:
            self = .notFound(message: detail.message)
        case 409:
            switch detail.type {
            case "price_changed": self = .priceChanged(message: detail.message)
            case "out_of_stock": self = .outOfStock(message: detail.message)
            case "idempotency_in_progress": self = .idempotencyInProgress
            case "payment_in_progress": self = .paymentInProgress
            default: self = .conflict(type: detail.type, message: detail.message)
            }
        case 422 where detail.type == "idempotency_mismatch":
            self = .idempotencyMismatch(field: detail.field)
        case 422:
            self = .invalid(type: detail.type, message: detail.message, field: detail.field)
        default:
            self = .unexpectedAnswer(status: status, detail: "a \(status) answer of type \(detail.type)")
        }
    }

    /// What a transport's failure means to the app: no answer is ``unavailable`` (for a payment:
    /// outcome unknown, retry with the key); something that was not HTTP, or a request that could
    /// not be made, is ``unexpectedAnswer(status:detail:)``.
    public init(_ error: TransportError) {
        switch error {
        case .timedOut, .cannotConnect, .connectionLost, .cancelled:
            self = .unavailable
        case .invalidResponse(let detail):
            self = .unexpectedAnswer(status: nil, detail: detail)
        case .invalidRequest(let detail):
            self = .unexpectedAnswer(status: nil, detail: "the request could not be sent: \(detail)")
        }
    }

    /// `Retry-After` in seconds (`"3"`); an HTTP date or anything else is not understood.
    static func retryAfter(_ value: String?) -> Duration? {
        guard let value, let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 else {
            return nil
        }
        return .seconds(seconds)
    }
}
