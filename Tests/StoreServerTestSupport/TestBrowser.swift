import CheckoutKit
import Foundation
import StoreAPI
import StoreDatabase
import StoreServer
import StoreServices
import StoreTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A browser without JavaScript, as far as the server can tell: it keeps cookies, sends `Origin`
/// with its forms, and does not follow redirects by itself (so each 303 can be checked).
public final class TestBrowser: @unchecked Sendable {
    public let base: URL
    private let lock = NSLock()
    private var jar: [String: String] = [:]
    /// The `csrf` field of the last page read.
    public private(set) var csrf = ""

    private final class NoRedirects: NSObject, URLSessionTaskDelegate {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    private let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }()

    public init(base: URL) {
        self.base = base
    }

    public var cookies: [String: String] { lock.withLock { jar } }

    /// Puts a cookie in the jar, as if a page had set it.
    public func setCookie(_ name: String, _ value: String) {
        lock.withLock { jar[name] = value }
    }

    public func get(_ path: String) async throws -> TestStore.Reply {
        try await send("GET", path, body: nil, headers: [:])
    }

    /// Posts a form: `fields`, with the last page's CSRF token unless `csrf` says otherwise.
    public func post(
        _ path: String, _ fields: [(String, String)], csrf: String? = nil, origin: Bool = true,
        headers: [String: String] = [:]
    ) async throws -> TestStore.Reply {
        let all = [("csrf", csrf ?? self.csrf)] + fields
        let body = all.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&")
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        if origin { headers["Origin"] = "\(base.scheme ?? "http")://\(base.host ?? ""):\(base.port ?? 80)" }
        return try await send("POST", path, body: Data(body.utf8), headers: headers)
    }

    /// Posts `body` exactly as written, after the last page's CSRF token (`csrf=…&` + body), as a
    /// form: for fields a browser would encode otherwise, or not at all.
    public func post(_ path: String, rawBody body: String, origin: Bool = true) async throws -> TestStore.Reply {
        var headers = ["Content-Type": "application/x-www-form-urlencoded"]
        if origin { headers["Origin"] = "\(base.scheme ?? "http")://\(base.host ?? ""):\(base.port ?? 80)" }
        return try await send("POST", path, body: Data(("csrf=\(csrf)&" + body).utf8), headers: headers)
    }

    /// Posts a `multipart/form-data` form, as a browser sends one with a file field: the last
    /// page's CSRF token and `fields` as text parts, then each file as a part with its name.
    public func postMultipart(
        _ path: String, _ fields: [(String, String)], files: [(field: String, name: String, bytes: [UInt8])]
    ) async throws -> TestStore.Reply {
        let boundary = "----StoreBrowserBoundary" + String(UInt64.random(in: 1...UInt64.max), radix: 36)
        var body: [UInt8] = []
        for (name, value) in [("csrf", csrf)] + fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        for file in files {
            body += Array(
                ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.field)\"; filename=\"\(file.name)\"\r\n"
                    + "Content-Type: application/octet-stream\r\n\r\n").utf8)
            body += file.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return try await send(
            "POST", path, body: Data(body),
            headers: [
                "Content-Type": "multipart/form-data; boundary=\(boundary)",
                "Origin": "\(base.scheme ?? "http")://\(base.host ?? ""):\(base.port ?? 80)",
            ])
    }

    /// Follows a 303 from a form to the page it leads to.
    public func follow(_ reply: TestStore.Reply) async throws -> TestStore.Reply {
        guard reply.status == 303, let location = reply.header("Location") else {
            throw TestError("expected a 303, got \(reply.status): \(reply.text.prefix(300))")
        }
        return try await get(location)
    }

    private func send(
        _ method: String, _ path: String, body: Data?, headers: [String: String]
    ) async throws
        -> TestStore.Reply
    {
        guard let url = URL(string: path, relativeTo: base) else { throw TestError("bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let cookieHeader = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        if !cookieHeader.isEmpty { request.setValue(cookieHeader, forHTTPHeaderField: "Cookie") }
        let (data, response) = try await session.uncancelledData(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestError("not an HTTP response") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        let reply = TestStore.Reply(status: http.statusCode, headers: fields, body: data)
        for line in Self.setCookieLines(reply) { remember(line) }
        if let token = Self.field("csrf", in: reply.text) { lock.withLock { csrf = token } }
        return reply
    }

    /// Each `Set-Cookie` line of a reply (Foundation joins repeated fields with commas; the
    /// store's cookies hold no comma).
    public static func setCookieLines(_ reply: TestStore.Reply) -> [String] {
        guard let joined = reply.header("Set-Cookie") else { return [] }
        return joined.components(separatedBy: ", ").filter { $0.contains("=") }
    }

    private func remember(_ line: String) {
        let parts = line.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return }
        let name = String(pair[..<equals])
        let value = String(pair[pair.index(after: equals)...])
        let expired = parts.contains { $0.lowercased() == "max-age=0" }
        lock.withLock { jar[name] = expired || value.isEmpty ? nil : value }
    }

    /// The value of the first `<input name="NAME" value="…">` in `html`.
    public static func field(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: #"name="\#(name)" value=""#) else { return nil }
        let rest = html[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    public static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
