/// An error a handler or middleware throws to answer with a specific status.
///
/// It becomes a JSON response `{"error": {"type": "…", "message": "…"}}` with ``status`` and the
/// extra ``headers``. The message is sent to the client as it is: it must not contain secrets or
/// personal data. Any other error thrown by a handler becomes a generic 500 instead.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The response status.
    public var status: HTTPStatus
    /// A stable snake_case code clients can switch on, for example `not_found`.
    public var type: String
    /// A short explanation for people.
    public var message: String
    /// Extra header fields for the response (`Allow`, `Retry-After`, `WWW-Authenticate`).
    public var headers: HTTPHeaders

    /// An error answering `status` with the given type and message.
    public init(_ status: HTTPStatus, type: String, message: String, headers: HTTPHeaders = [:]) {
        self.status = status
        self.type = type
        self.message = message
        self.headers = headers
    }

    /// 400 `bad_request`, or another type.
    public static func badRequest(_ message: String, type: String = "bad_request") -> HTTPError {
        HTTPError(.badRequest, type: type, message: message)
    }

    /// 401 `unauthorized`.
    public static func unauthorized(_ message: String = "Authentication is required.") -> HTTPError {
        HTTPError(.unauthorized, type: "unauthorized", message: message)
    }

    /// 403 `forbidden`.
    public static func forbidden(_ message: String = "This action is not allowed.") -> HTTPError {
        HTTPError(.forbidden, type: "forbidden", message: message)
    }

    /// 404 `not_found`.
    public static func notFound(_ message: String = "The resource was not found.") -> HTTPError {
        HTTPError(.notFound, type: "not_found", message: message)
    }

    /// 409 `conflict`.
    public static func conflict(_ message: String) -> HTTPError {
        HTTPError(.conflict, type: "conflict", message: message)
    }

    /// 500 `internal_error` with a message that reveals nothing.
    public static let internalError = HTTPError(
        .internalServerError, type: "internal_error", message: "An internal error occurred.")

    /// `HTTPError 404 not_found: …`, for logs.
    public var description: String { "HTTPError \(status.code) \(type): \(message)" }

    /// The JSON error response.
    public var response: Response {
        var body: [UInt8] = []
        body.reserveCapacity(40 + type.utf8.count + message.utf8.count)
        body.append(contentsOf: #"{"error":{"type":"#.utf8)
        Encoding.appendJSONString(type, to: &body)
        body.append(contentsOf: #","message":"#.utf8)
        Encoding.appendJSONString(message, to: &body)
        body.append(contentsOf: "}}".utf8)
        var response = Response.bytes(body, contentType: "application/json; charset=utf-8", status: status)
        for field in headers {
            response.headers.add(name: field.name, value: field.value)
        }
        return response
    }
}
