/// What went wrong with a request, said the way the answer will say it: a status, a stable
/// snake_case `type` clients can switch on, a message for people, and optionally the request field
/// concerned, a finer reason and extra header fields.
///
/// An `HTTPError` is only data. How it is written — JSON for an API, an HTML page for a browser —
/// is decided per request by the application's ``Router/errorResponder``, so one error type serves
/// every kind of route, and the 404 and 405 answers the router gives on its own look the same.
/// The message is sent as it is: it must not contain secrets or personal data.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The response status.
    public var status: HTTPStatus
    /// A stable snake_case code, for example `not_found`.
    public var type: String
    /// A short explanation for people.
    public var message: String
    /// The request field the error is about (`products[1].quantity`), when there is one.
    public var field: String?
    /// A finer code under `type` (a payment decline's `card_declined`), when there is one.
    public var reason: String?
    /// Extra header fields for the response (`Allow`, `Retry-After`, `WWW-Authenticate`).
    public var headers: HTTPHeaders

    /// An error answering `status` with the given type and message.
    public init(
        _ status: HTTPStatus, type: String, message: String, field: String? = nil, reason: String? = nil,
        headers: HTTPHeaders = [:]
    ) {
        self.status = status
        self.type = type
        self.message = message
        self.field = field
        self.reason = reason
        self.headers = headers
    }

    /// 404 `not_found`.
    public static func notFound(_ message: String = "No resource exists at this path.") -> HTTPError {
        HTTPError(.notFound, type: "not_found", message: message)
    }

    /// 405 `method_not_allowed`, with the `Allow` field listing `allowed`.
    public static func methodNotAllowed(_ allowed: [HTTPMethod]) -> HTTPError {
        HTTPError(
            .methodNotAllowed, type: "method_not_allowed", message: "This method is not allowed for this resource.",
            headers: ["Allow": allowed.map(\.rawValue).joined(separator: ", ")])
    }

    /// 413 `payload_too_large`.
    public static let payloadTooLarge = HTTPError(
        .payloadTooLarge, type: "payload_too_large", message: "The request body is too large.")

    /// 503 `shutting_down`, closing the connection.
    public static let shuttingDown = HTTPError(
        .serviceUnavailable, type: "shutting_down", message: "The server is shutting down.",
        headers: ["Connection": "close"])

    /// 500 `internal_error` with a message that reveals nothing.
    public static let internalError = HTTPError(
        .internalServerError, type: "internal_error", message: "An internal error occurred.")

    /// `HTTPError 404 not_found: …`, for logs.
    public var description: String { "HTTPError \(status.code) \(type): \(message)" }

    /// `status type: message` as plain text: the answer of a router whose application set no
    /// ``Router/errorResponder``.
    public var plainTextResponse: Response {
        Response.text("\(status.code) \(type): \(message)\n", status: status)
    }
}

/// An error that knows the answer it stands for.
///
/// A router answers every error thrown by a handler or a middleware that conforms with its
/// ``httpError``; any other error is unexpected: it is reported once through
/// ``Router/errorReporter`` and answered as ``HTTPError/internalError``. Applications make their
/// domain errors conform where they map them to answers (in their route layer), so that the
/// domain itself knows nothing of HTTP.
public protocol HTTPErrorConvertible: Error {
    /// The answer this error stands for.
    var httpError: HTTPError { get }
}

extension HTTPError: HTTPErrorConvertible {
    public var httpError: HTTPError { self }
}
