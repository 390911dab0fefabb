/// A route whose requests may have a larger body than ``HTTPServer/Configuration/maxBodyBytes``
/// (an upload), listed in ``HTTPServer/Configuration/largeBodies``.
///
/// The pattern is written like a ``Router`` pattern: literal segments and `{name}` segments, each of
/// which matches any one segment (`/admin/products/{id}/image` matches `/admin/products/12/image`,
/// not `/admin/products/12/image/x`). The request's path is read as the router reads it: the path
/// of the target before `?`, split on `/` with empty segments ignored, each segment then
/// percent-decoded. The method must be the same (`HEAD` is not `GET` here).
public struct LargeBodyRoute: Hashable, Sendable {
    /// The method of the requests this limit is for.
    public let method: HTTPMethod
    /// The path pattern, such as `/admin/products/{id}/image`.
    public let pattern: String
    /// The largest body accepted on this route.
    public let maxBodyBytes: Int

    private let segments: [Segment]

    private enum Segment: Hashable, Sendable {
        case literal(String)
        case any
    }

    /// A larger body limit for requests of `method` whose path matches `pattern`.
    public init(method: HTTPMethod, pattern: String, maxBodyBytes: Int) {
        self.method = method
        self.pattern = pattern
        self.maxBodyBytes = maxBodyBytes
        segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { segment in
            segment.first == "{" && segment.last == "}" && segment.count > 2 ? .any : .literal(String(segment))
        }
    }

    /// Whether a request's decoded path segments match the pattern.
    func matches(_ path: [String]) -> Bool {
        guard path.count == segments.count else { return false }
        return zip(segments, path).allSatisfy { segment, value in
            switch segment {
            case .any: true
            case .literal(let literal): literal == value
            }
        }
    }
}

/// The body limit a request gets, decided from its method and path when its header fields arrive.
struct BodyLimit {
    /// The most bytes of body accepted.
    let bytes: Int
    /// Whether the request may have a body larger than ``HTTPServer/Configuration/maxBodyBytes``
    /// (it matched a ``LargeBodyRoute`` with a larger limit), for which it needs one of the
    /// ``HTTPServer/Configuration/maxLargeBodiesInFlight`` slots.
    var isLarge: Bool { bytes > normal }
    /// ``HTTPServer/Configuration/maxBodyBytes``.
    let normal: Int

    /// How much of a body refused while it arrives (413, or 503 for want of a slot) is read and
    /// dropped before the answer: 4 limits' worth. Past that the connection is closed.
    var drainBytes: Int {
        bytes > Int.max / 4 ? Int.max : max(0, bytes) * 4
    }

    /// The limit for `request` under `configuration`: the first matching large-body route's, else
    /// the normal one.
    /// (Borrowed, and without an array of candidates: this runs for every request, and most
    /// have no large-body route for their method.)
    init(for request: borrowing Request, configuration: borrowing HTTPServer.Configuration) {
        normal = configuration.maxBodyBytes
        let method = request.method
        guard configuration.largeBodies.contains(where: { $0.method == method }) else {
            bytes = normal
            return
        }
        let path = request.rawPath.utf8.split(separator: UInt8(ascii: "/")).map {
            Encoding.percentDecoded(Substring($0))
        }
        bytes = configuration.largeBodies.first { $0.method == method && $0.matches(path) }?.maxBodyBytes ?? normal
    }
}

extension HTTPError {
    /// 503 `server_busy`: too many large bodies are being received; the connection is closed.
    static let serverBusy = HTTPError(
        .serviceUnavailable, type: "server_busy",
        message: "The server is receiving too many large uploads; try again in a moment.",
        headers: ["Retry-After": "1", "Connection": "close"])
}
