import Foundation
import HTTPServer

#if canImport(Glibc)
import Glibc
#endif

/// The proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` the store believes
/// (docs/BEHAVIOUR.md §15.2): address ranges written as CIDR (`10.0.0.0/8`, `127.0.0.1/32`,
/// `::1/128`, `fd00::/8`). From anyone else those header fields are removed before any route sees
/// the request, so a forged one changes nothing.
public struct TrustedProxies: Hashable, Sendable {
    /// One range: the network's bytes (4 or 16) and how many leading bits count.
    struct Range: Hashable, Sendable {
        let bytes: [UInt8]
        let prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var bits = prefix
            for (mine, theirs) in zip(bytes, address) {
                guard bits > 0 else { return true }
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                if mine & mask != theirs & mask { return false }
                bits -= 8
            }
            return true
        }
    }

    let ranges: [Range]

    /// Nobody: every forwarded header field is ignored.
    public static let none = TrustedProxies(ranges: [])

    init(ranges: [Range]) {
        self.ranges = ranges
    }

    /// The ranges in `text`, comma-separated CIDRs (a bare address is its own /32 or /128); `nil`
    /// when one of them is not a range.
    public init?(parsing text: String) {
        var ranges: [Range] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = part.trimmingCharacters(in: .whitespaces)
            let pieces = item.split(separator: "/", omittingEmptySubsequences: false)
            guard (1...2).contains(pieces.count), let bytes = Self.bytes(of: String(pieces[0])) else { return nil }
            let prefix: Int
            if pieces.count == 2 {
                guard let bits = Int(pieces[1]), pieces[1].allSatisfy({ $0.isASCII && $0.isNumber }),
                    (0...bytes.count * 8).contains(bits)
                else { return nil }
                prefix = bits
            } else {
                prefix = bytes.count * 8
            }
            ranges.append(Range(bytes: bytes, prefix: prefix))
        }
        guard !ranges.isEmpty else { return nil }
        self.ranges = ranges
    }

    /// Whether the address written as `text` is in one of the ranges.
    public func contains(_ text: String) -> Bool {
        guard let bytes = Self.bytes(of: text) else { return false }
        return ranges.contains { $0.contains(bytes) }
    }

    public var isEmpty: Bool { ranges.isEmpty }

    /// The client a request comes from when it arrived from `peer` with `forwardedFor` (the
    /// `X-Forwarded-For` list, oldest first): reading from the right, the first address that is not
    /// a trusted proxy — proxies each append the address they got the request from, and only the
    /// trusted ones can be believed. `nil` when the peer is not trusted or the list names nobody
    /// else.
    public func client(peer: String, forwardedFor: String) -> String? {
        guard contains(peer) else { return nil }
        let hops = forwardedFor.split(separator: ",").map { String(HTTPHeaders.trimmingOptionalWhitespace($0)) }
        for hop in hops.reversed() {
            guard Self.bytes(of: hop) != nil else { return nil }
            if !contains(hop) { return hop }
        }
        return nil
    }

    /// An address's bytes: 4 for IPv4 (an IPv4-mapped IPv6 address too), 16 for IPv6.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }
}

/// Believes `X-Forwarded-For` and `X-Forwarded-Proto` only from trusted proxies: the request's
/// client address becomes the forwarded client's; from anyone else both fields are removed.
struct ForwardedHeaders: Middleware {
    let trusted: TrustedProxies

    func handle(_ request: Request, context: RequestContext, next: Responder) async throws -> Response {
        var request = request
        // The peer's address is written out only when there are proxies to compare it with, and
        // the header fields are rewritten only when there is one to remove.
        if !trusted.isEmpty, let peer = request.clientAddress, trusted.contains(peer) {
            if let forwarded = request.headers["X-Forwarded-For"],
                let client = trusted.client(peer: peer, forwardedFor: forwarded)
            {
                request.clientAddress = client
            }
        } else if request.headers.contains("X-Forwarded-For") || request.headers.contains("X-Forwarded-Proto") {
            request.headers.remove(name: "X-Forwarded-For")
            request.headers.remove(name: "X-Forwarded-Proto")
        }
        return try await next(request, context)
    }
}
