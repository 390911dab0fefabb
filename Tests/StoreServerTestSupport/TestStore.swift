import CheckoutKit
import Foundation
import PaymentProvider
import StoreAPI
import StoreCrypto
import StoreDatabase
import StoreServer
import StoreServices
import StoreTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Collects access-log lines in memory.
public final class LogLines: @unchecked Sendable {
    public init() {}

    private let lock = NSLock()
    private var lines: [String] = []

    public func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    public var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    /// A server log that writes here.
    public var serverLog: ServerLog {
        ServerLog { self.append(String(decoding: $0, as: UTF8.self)) }
    }
}

/// A running store on a loopback port over a fresh database, its access log, and a client for it.
public struct TestStore: Sendable {
    public let running: RunningStore
    public let log: LogLines

    public var server: StoreServer { running.server }
    public var database: StoreDatabase { running.database }
    public var provider: SandboxProvider { running.provider }
    public var base: URL { running.base }

    /// Runs `body` against a fresh store on `backend`, then stops it and removes its data.
    /// On PostgreSQL without a server: a failure in CI, a visible skip elsewhere.
    public static func with(
        _ backend: Backend, clock: StoreClock = .system, configuration: StoreConfiguration = StoreConfiguration(),
        provider: @escaping @Sendable (SandboxProvider) -> any PaymentProvider = { $0 },
        trustedProxies: TrustedProxies = .none, _ body: (TestStore) async throws -> Void
    ) async throws {
        let log = LogLines()
        try await RunningStore.with(
            backend, prefix: "e2e", clock: clock, configuration: configuration, provider: provider,
            log: log.serverLog, trustedProxies: trustedProxies
        ) { running in
            try await body(TestStore(running: running, log: log))
        }
    }

    /// Starts a store on a loopback port over the database at `url` (migrated and seeded) and the
    /// sandbox ledger beside it.
    /// - Parameter provider: what the server charges through, made from the sandbox (which the
    ///   tests count charges in).
    public static func start(
        url: String, clock: StoreClock = .system, configuration: StoreConfiguration = StoreConfiguration(),
        provider wrap: @escaping @Sendable (SandboxProvider) -> any PaymentProvider = { $0 }
    ) async throws -> TestStore {
        let log = LogLines()
        let running = try await RunningStore.start(
            url: url, clock: clock, configuration: configuration, provider: wrap, log: log.serverLog)
        return TestStore(running: running, log: log)
    }

    /// Stops the server, then closes the ledger and the database.
    public func stop() async {
        await running.stop()
    }

    // MARK: Client

    public struct Reply: Sendable {
        public let status: Int
        public let headers: [String: String]
        public let body: Data

        /// An answer received some other way (a client of a test's own).
        public init(status: Int, headers: [String: String], body: Data) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        public var text: String { String(decoding: body, as: UTF8.self) }

        public func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try StoreJSON.makeDecoder().decode(type, from: body)
        }

        public func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }

        /// The answer of `endpoint`, decoded.
        public func answer<Body, Answer: Decodable>(_ endpoint: Endpoint<Body, Answer>) throws -> Answer {
            try decode(Answer.self)
        }

        /// The `type` of an error body.
        public var errorType: String? { try? decode(ErrorBody.self).error.type }
    }

    public static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.httpMaximumConnectionsPerHost = 16
        return URLSession(configuration: configuration)
    }()

    public func send(
        _ method: String, _ path: String, token: String? = nil, json: String? = nil, body: Data? = nil,
        headers: [String: String] = [:]
    ) async throws -> Reply {
        guard let url = URL(string: path, relativeTo: base) else { throw TestError("bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let body { request.httpBody = body }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await Self.session.uncancelledData(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestError("not an HTTP response") }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return Reply(status: http.statusCode, headers: headers, body: data)
    }

    /// Sends a raw request head and body over a plain socket and returns the status code of the
    /// answer, read even if the server stops reading the body and closes the connection early.
    public func rawStatus(_ head: String, body: [UInt8]) async throws -> Int {
        let port = UInt16(server.port)
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try Self.exchange(port: port, head: Array(head.utf8), body: body) })
            }.start()
        }
    }

    /// Sends `text` over a plain socket in one write and returns all the server sends back until
    /// it closes the connection (or 3 s pass).
    public func rawExchange(_ text: String) async throws -> String {
        let port = UInt16(server.port)
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        let socketFD = try Self.connectSocket(port: port, timeoutSeconds: 3)
                        defer { close(socketFD) }
                        let bytes = Array(text.utf8)
                        _ = bytes.withUnsafeBytes {
                            Glibc.send(socketFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                        }
                        var response: [UInt8] = []
                        var buffer = [UInt8](repeating: 0, count: 4_096)
                        while true {
                            let count = buffer.withUnsafeMutableBytes { recv(socketFD, $0.baseAddress, $0.count, 0) }
                            if count <= 0 { break }
                            response += buffer[0..<count]
                        }
                        return String(decoding: response, as: UTF8.self)
                    })
            }.start()
        }
    }

    /// A socket connected to `port` on 127.0.0.1, its reads and writes timing out after
    /// `timeoutSeconds`; the caller closes it.
    public static func connectSocket(port: UInt16, timeoutSeconds: Int) throws -> Int32 {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw TestError("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(socketFD)
            throw TestError("connect failed")
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socketFD, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return socketFD
    }

    private static func exchange(port: UInt16, head: [UInt8], body: [UInt8]) throws -> Int {
        let socketFD = try connectSocket(port: port, timeoutSeconds: 10)
        defer { close(socketFD) }
        func sendAll(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes {
                    Glibc.send(socketFD, $0.baseAddress, min($0.count, 64 << 10), Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
        guard sendAll(head) else { throw TestError("could not send the head") }
        _ = sendAll(body)  // the server may stop reading and close: that is expected
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while !response.contains(UInt8(ascii: "\n")) {
            let count = buffer.withUnsafeMutableBytes { recv(socketFD, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            response += buffer[0..<count]
        }
        let statusLine = String(decoding: response.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw TestError("no status line: \(statusLine)") }
        return status
    }

    /// A new anonymous session's token.
    // MARK: Endpoints

    /// Sends `endpoint` with its path parameters and a JSON body, as the store's clients do.
    public func send<Body: Encodable, Answer>(
        _ endpoint: Endpoint<Body, Answer>, _ parameters: String..., body: Body, token: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> Reply {
        let json = String(decoding: try StoreJSON.makeEncoder().encode(body), as: UTF8.self)
        return try await send(
            endpoint.method.rawValue, endpoint.path(parameters), token: token, json: json, headers: headers)
    }

    /// Sends `endpoint`, which takes no body, with its path parameters.
    public func send<Answer>(
        _ endpoint: Endpoint<NoBody, Answer>, _ parameters: String..., token: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> Reply {
        try await send(endpoint.method.rawValue, endpoint.path(parameters), token: token, headers: headers)
    }

    /// A new anonymous session's token.
    public func newSession() async throws -> String {
        let reply = try await send(Endpoints.createSession)
        #expect(reply.status == 201)
        return try reply.decode(SessionResponse.self).token
    }

    public func login(_ email: String, _ password: String, token: String? = nil) async throws -> Reply {
        try await send(Endpoints.login, body: LoginRequest(email: email, password: password), token: token)
    }

    public func setQuantity(_ quantity: Int, of product: Int, token: String) async throws -> Reply {
        try await send(
            Endpoints.setQuantity, String(product), body: SetQuantityRequest(quantity: quantity), token: token)
    }

    public func basket(_ token: String) async throws -> BasketBody {
        let reply = try await send(Endpoints.basket, token: token)
        guard reply.status == 200 else {
            throw TestError("\(Endpoints.basket) answered \(reply.status): \(reply.text)")
        }
        return try reply.decode(BasketBody.self)
    }
}

public struct TestError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

public func eur(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .eur) }

extension TestStore {
    public func checkout(token: String, key: String?, method: String, total: String) async throws -> Reply {
        var headers: [String: String] = [:]
        if let key { headers["Idempotency-Key"] = key }
        return try await send(
            "POST", "/api/checkout", token: token,
            json: #"{"payment_method":\#(method),"expected_total":{"amount":"\#(total)","currency":"EUR"}}"#,
            headers: headers)
    }

    /// A shopper with the worked-case basket of docs/BEHAVIOUR.md §4: 10.20 + 21.90 + 2 × 8.95 with RUN10 = 45.00.
    public func workedCaseShopper() async throws -> String {
        let token = try await newSession()
        _ = try await setQuantity(1, of: 1, token: token)
        _ = try await setQuantity(1, of: 2, token: token)
        _ = try await setQuantity(2, of: 3, token: token)
        _ = try await send("PUT", "/api/basket/promotion", token: token, json: #"{"code":"RUN10"}"#)
        return token
    }

    public func stock(_ product: Int64) async throws -> Int {
        try #require(try await database.catalog.product(ProductID(product))).stock
    }

    public func orderCount() async throws -> Int {
        try await database.sql.read {
            try $0.queryFirst("SELECT COUNT(*) AS n FROM orders")?.decode("n", as: Int.self) ?? -1
        }
    }
}

public let visa = #"{"type":"card","token":"tok_visa"}"#
