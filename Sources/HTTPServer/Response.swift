#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An HTTP response: status, header fields and body bytes.
///
/// `Content-Length` is computed by the server from ``body``; a `Content-Length` or
/// `Transfer-Encoding` field set here is ignored. The body of a response to `HEAD` is not sent.
public struct Response: Sendable {
    /// The status; 200 OK unless told otherwise.
    public var status: HTTPStatus {
        didSet { prepared = nil }
    }
    /// The header fields, `Content-Type` among them.
    public var headers: HTTPHeaders {
        didSet { prepared = nil }
    }
    /// The body. A cached `[UInt8]` handed in here is shared, not copied, until it is written out.
    public var body: [UInt8] {
        didSet { prepared = nil }
    }

    /// The prepared response this one is, while it is unchanged.
    private(set) var prepared: PreparedResponse?

    /// The response `prepared` stands for, sent as prepared (see ``PreparedResponse``).
    public init(prepared: PreparedResponse) {
        self = prepared.response
        self.prepared = prepared
    }

    /// A response with the given parts; see ``json(_:status:encoder:)``, ``text(_:status:)``,
    /// ``html(_:status:)`` and ``bytes(_:contentType:status:)`` for the usual ones.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response (`application/json; charset=utf-8`) with `value` encoded by `encoder`.
    ///
    /// - Throws: the encoder's error; thrown on from a handler it becomes a generic 500.
    public static func json(
        _ value: some Encodable, status: HTTPStatus = .ok, encoder: JSONEncoder = JSONEncoder()
    )
        throws -> Response
    {
        let data = try encoder.encode(value)
        return bytes([UInt8](data), contentType: "application/json; charset=utf-8", status: status)
    }

    /// A plain-text response (`text/plain; charset=utf-8`).
    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        bytes(Array(text.utf8), contentType: "text/plain; charset=utf-8", status: status)
    }

    /// An HTML response (`text/html; charset=utf-8`).
    public static func html(_ html: String, status: HTTPStatus = .ok) -> Response {
        bytes(Array(html.utf8), contentType: "text/html; charset=utf-8", status: status)
    }

    /// A response with the given bytes and `Content-Type`, for example a JSON document encoded
    /// once and cached.
    public static func bytes(_ bytes: [UInt8], contentType: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": contentType], body: bytes)
    }

    /// Adds a `Set-Cookie` field for `cookie`, keeping any other cookies already set.
    public mutating func setCookie(_ cookie: Cookie) {
        headers.add(name: "Set-Cookie", value: cookie.headerValue)
    }

    /// This response with a `Set-Cookie` field added for `cookie`.
    public func settingCookie(_ cookie: Cookie) -> Response {
        var copy = self
        copy.setCookie(cookie)
        return copy
    }

    /// Whether the response already sets (or removes) the cookie `name`.
    public func setsCookie(named name: String) -> Bool {
        let prefix = Encoding.percentEncoded(name, allowing: Cookie.isTokenByte) + "="
        return headers.values(for: "Set-Cookie").contains { $0.hasPrefix(prefix) }
    }
}
