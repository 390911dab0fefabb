#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One decoded query item of a request target: `?q=red+shoes` gives name `q`, value `red shoes`.
public struct QueryItem: Sendable, Equatable {
    /// The decoded name.
    public var name: String
    /// The decoded value; empty when the item had no `=`.
    public var value: String

    /// A query item.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// An HTTP request as handlers see it: a plain value, complete with its body.
public struct Request: Sendable {
    /// The request method.
    public var method: HTTPMethod { line.method }
    /// The request target exactly as sent: path and query, still percent-encoded.
    public var target: String { line.target }
    /// The percent-decoded path, without the query. `%2F` decodes to `/` here; routing splits the
    /// path into segments before decoding, so such a slash stays inside its segment.
    public var path: String { line.path }
    /// The decoded query items in order (`+` decodes to a space).
    public var queryItems: [QueryItem] { line.queryItems }
    /// The request header fields.
    public var headers: HTTPHeaders
    /// The request body; empty when there was none.
    public var body: [UInt8]
    /// The client's IP address as text (`127.0.0.1`, `::1`), when known. Formatted when asked
    /// for: most requests never need it.
    public var clientAddress: String? {
        get { address?.text }
        set { address = newValue.map(ClientAddress.text) }
    }

    /// The client's address as the server received it.
    var address: ClientAddress?

    /// The still-encoded path, split off the target once for routing.
    var rawPath: Substring { line.rawPath }

    /// The request line's parts, which never change once read: kept in one object, so that
    /// handing a request on (to its state, a handler, a middleware) copies one reference for them.
    private let line: Line

    private final class Line: Sendable {
        let method: HTTPMethod
        let target: String
        let path: String
        let queryItems: [QueryItem]
        let rawPath: Substring

        init(method: HTTPMethod, target: String) {
            self.method = method
            self.target = target
            // Searching the UTF-8 view: `?` and `#` are ASCII, and Character search is much slower.
            let beforeFragment = target.utf8.firstIndex(of: UInt8(ascii: "#")).map { target[..<$0] } ?? target[...]
            if let mark = beforeFragment.utf8.firstIndex(of: UInt8(ascii: "?")) {
                rawPath = beforeFragment[..<mark]
                queryItems = Request.parseQuery(beforeFragment[beforeFragment.index(after: mark)...])
            } else {
                rawPath = beforeFragment
                queryItems = []
            }
            path = Encoding.percentDecoded(rawPath)
        }
    }

    /// A request for `target` (`/path?query`), as the server builds it; also for in-process tests.
    public init(
        method: HTTPMethod, target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
        clientAddress: String? = nil
    ) {
        line = Line(method: method, target: target)
        self.headers = headers
        self.body = body
        self.address = clientAddress.map(ClientAddress.text)
    }

    /// The first value of the query item `name`, decoded.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The cookies sent in the `Cookie` header(s), by name; when a name repeats, the first wins
    /// (browsers send the most specific path first). Values are percent-decoded, matching how
    /// ``Cookie`` encodes them. Parsed on each access.
    public var cookies: [String: String] {
        var result: [String: String] = [:]
        forEachCookie { name, value in
            if result[name] == nil {
                result[name] = value
            }
            return true
        }
        return result
    }

    /// The value of the cookie `name`, or `nil`.
    public func cookie(_ name: String) -> String? {
        var found: String?
        forEachCookie { cookieName, value in
            if cookieName == name {
                found = value
                return false
            }
            return true
        }
        return found
    }

    /// The body read as an HTML form's fields (`application/x-www-form-urlencoded`), in order,
    /// decoded like a query string.
    public var formItems: [QueryItem] {
        Request.formItems(of: body)
    }

    /// `body` read as an HTML form's fields, in order, decoded like a query string.
    public static func formItems(of body: [UInt8]) -> [QueryItem] {
        parseQuery(Substring(String(decoding: body, as: UTF8.self)))
    }

    /// The body's parts, read per RFC 7578 with the boundary from the Content-Type header (an
    /// HTML form sent with `enctype="multipart/form-data"`, which file fields need). Parsed on
    /// each call. A file field left empty is a part with the file name `""` and an empty body.
    ///
    /// - Throws: ``MultipartError``: `.notMultipart` when the Content-Type is not
    ///   `multipart/form-data`, `.missingBoundary` when it has no usable boundary, `.malformed`
    ///   when the body is not framed as RFC 2046 says or a part lacks a `form-data` name,
    ///   `.tooManyParts` past 100 parts. As an ``HTTPErrorConvertible`` it answers 415 or 400.
    public func multipartParts() throws(MultipartError) -> [MultipartPart] {
        try Multipart.parts(contentType: headers["Content-Type"], body: body)
    }

    // Queries, forms and cookies are split on their ASCII delimiters byte by byte: compared as
    // Characters, a delimiter followed by a combining mark (`&\u{301}`) would not be one.

    fileprivate static func parseQuery(_ query: Substring) -> [QueryItem] {
        query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { pair in
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                return QueryItem(
                    name: Encoding.percentDecoded(Substring(pair[..<equals]), plusAsSpace: true),
                    value: Encoding.percentDecoded(Substring(pair[pair.index(after: equals)...]), plusAsSpace: true))
            }
            return QueryItem(name: Encoding.percentDecoded(Substring(pair), plusAsSpace: true), value: "")
        }
    }

    /// Calls `body` with each cookie's name and decoded value until it returns `false`.
    private func forEachCookie(_ body: (String, String) -> Bool) {
        for header in headers.values(for: "Cookie") {
            for pair in header.utf8.split(separator: UInt8(ascii: ";")) {
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = HTTPHeaders.trimmingOptionalWhitespace(Substring(pair[..<equals])).utf8
                var value = HTTPHeaders.trimmingOptionalWhitespace(Substring(pair[pair.index(after: equals)...])).utf8
                if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                    value = value.dropFirst().dropLast()
                }
                guard !name.isEmpty else { continue }
                if !body(Encoding.percentDecoded(Substring(name)), Encoding.percentDecoded(Substring(value))) {
                    return
                }
            }
        }
    }
}

/// A client's IP address: as bytes from the connection, or as text given to ``Request/init``.
enum ClientAddress: Sendable, Hashable {
    case ipv4(UInt32)
    case ipv6(UInt64, UInt64)
    case text(String)

    /// The address from `count` (4 or 16) network-order bytes.
    init?(bytes: UnsafeRawBufferPointer, family: Int32) {
        switch family {
        case 4: self = .ipv4(bytes.loadUnaligned(as: UInt32.self))
        case 6:
            self = .ipv6(bytes.loadUnaligned(as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        default: return nil
        }
    }

    /// `127.0.0.1`, `::1`.
    var text: String? {
        var buffer = [CChar](repeating: 0, count: 64)
        func format(_ family: Int32, _ raw: UnsafeRawBufferPointer) -> String? {
            guard let base = raw.baseAddress, inet_ntop(family, base, &buffer, socklen_t(buffer.count)) != nil else {
                return nil
            }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        switch self {
        case .ipv4(var value): return withUnsafeBytes(of: &value) { format(Int32(AF_INET), $0) }
        case .ipv6(let high, let low):
            var pair = (high, low)
            return withUnsafeBytes(of: &pair) { format(Int32(AF_INET6), $0) }
        case .text(let text): return text
        }
    }
}
