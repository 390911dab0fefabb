import CheckoutKit

/// One endpoint of the store's HTTP API, described once and used by the server's routes, the
/// Swift client and the tests: its method, its path pattern with `{parameters}`, whether it needs
/// a session, and — as type parameters — the JSON body it takes and the answer it gives.
///
/// ```swift
/// Endpoints.setQuantity.path("3")   // "/api/basket/items/3"
/// ```
public struct Endpoint<Body: Sendable, Answer: Sendable>: Sendable, CustomStringConvertible {
    /// The request method.
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
        case patch = "PATCH"
    }

    /// Who may call it.
    public enum Access: Hashable, Sendable {
        /// Anyone.
        case open
        /// A shopper with a session: `Authorization: Bearer <token>` (401 without).
        case session
        /// A member of staff with a staff session's bearer token (401 without; a customer's token
        /// is not one), whose role has `permission` (403 without); any member of staff for `nil`.
        case staff(Permission?)
    }

    public let method: Method
    /// The path with `{name}` for each parameter, such as `/api/orders/{id}`.
    public let pattern: String
    public let access: Access

    public init(_ method: Method, _ pattern: String, access: Access = .open) {
        self.method = method
        self.pattern = pattern
        self.access = access
    }

    /// The names of the pattern's parameters, in order.
    public var parameterNames: [String] {
        pattern.split(separator: "/").compactMap { segment in
            segment.first == "{" && segment.last == "}" ? String(segment.dropFirst().dropLast()) : nil
        }
    }

    /// The path with `values` in place of the pattern's parameters, in order, each
    /// percent-encoded as a path segment (`/` included); missing values leave the parameter empty.
    public func path(_ values: String...) -> String {
        path(values)
    }

    /// The path with `values` in place of the pattern's parameters, in order.
    public func path(_ values: [String]) -> String {
        var remaining = values[...]
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.first == "{", segment.last == "}" else { return String(segment) }
            return URLText.escaped(remaining.popFirst() ?? "")
        }
        return segments.joined(separator: "/")
    }

    /// `GET /api/orders/{id}`.
    public var description: String { "\(method.rawValue) \(pattern)" }
}

/// The body of an endpoint that takes none, and the answer of one that answers with none (204).
public struct NoBody: Codable, Hashable, Sendable {
    public init() {}
}

/// The answer of an endpoint that answers with bytes that are not JSON (an image).
public struct RawBytes: Hashable, Sendable {
    public var bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}
