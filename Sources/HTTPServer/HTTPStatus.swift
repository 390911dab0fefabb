/// An HTTP response status: a code and its reason phrase.
///
/// Two statuses are equal when their codes are. On the wire libmicrohttpd writes its own standard
/// reason phrase for the code; ``reasonPhrase`` is for logs and tests.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit status code, for example `404`.
    public let code: Int
    /// The reason phrase, for example `"Not Found"`.
    public let reasonPhrase: String

    /// A status with the given code. Without a phrase, the standard one is used when it is known.
    public init(code: Int, reasonPhrase: String? = nil) {
        self.code = code
        self.reasonPhrase = reasonPhrase ?? HTTPStatus.standardPhrase(for: code)
    }

    /// Statuses are equal when their codes are.
    public static func == (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `404 Not Found`.
    public var description: String { "\(code) \(reasonPhrase)" }

    /// 200 OK
    public static let ok = HTTPStatus(code: 200)
    /// 201 Created
    public static let created = HTTPStatus(code: 201)
    /// 202 Accepted
    public static let accepted = HTTPStatus(code: 202)
    /// 204 No Content
    public static let noContent = HTTPStatus(code: 204)
    /// 301 Moved Permanently
    public static let movedPermanently = HTTPStatus(code: 301)
    /// 302 Found
    public static let found = HTTPStatus(code: 302)
    /// 303 See Other
    public static let seeOther = HTTPStatus(code: 303)
    /// 304 Not Modified
    public static let notModified = HTTPStatus(code: 304)
    /// 307 Temporary Redirect
    public static let temporaryRedirect = HTTPStatus(code: 307)
    /// 308 Permanent Redirect
    public static let permanentRedirect = HTTPStatus(code: 308)
    /// 400 Bad Request
    public static let badRequest = HTTPStatus(code: 400)
    /// 401 Unauthorized
    public static let unauthorized = HTTPStatus(code: 401)
    /// 403 Forbidden
    public static let forbidden = HTTPStatus(code: 403)
    /// 404 Not Found
    public static let notFound = HTTPStatus(code: 404)
    /// 405 Method Not Allowed
    public static let methodNotAllowed = HTTPStatus(code: 405)
    /// 406 Not Acceptable
    public static let notAcceptable = HTTPStatus(code: 406)
    /// 409 Conflict
    public static let conflict = HTTPStatus(code: 409)
    /// 410 Gone
    public static let gone = HTTPStatus(code: 410)
    /// 412 Precondition Failed
    public static let preconditionFailed = HTTPStatus(code: 412)
    /// 413 Content Too Large
    public static let payloadTooLarge = HTTPStatus(code: 413)
    /// 415 Unsupported Media Type
    public static let unsupportedMediaType = HTTPStatus(code: 415)
    /// 422 Unprocessable Content
    public static let unprocessableContent = HTTPStatus(code: 422)
    /// 429 Too Many Requests
    public static let tooManyRequests = HTTPStatus(code: 429)
    /// 500 Internal Server Error
    public static let internalServerError = HTTPStatus(code: 500)
    /// 501 Not Implemented
    public static let notImplemented = HTTPStatus(code: 501)
    /// 502 Bad Gateway
    public static let badGateway = HTTPStatus(code: 502)
    /// 503 Service Unavailable
    public static let serviceUnavailable = HTTPStatus(code: 503)
    /// 504 Gateway Timeout
    public static let gatewayTimeout = HTTPStatus(code: 504)

    private static func standardPhrase(for code: Int) -> String {
        switch code {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }
}
