import Concurrency
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP server on a loopback port that answers whatever a test tells it to — an HTML page,
/// a cut-off body, a closed connection, nothing at all — to see the client survive it. It reads
/// one request per connection and records it.
final class FakeHTTPServer: Sendable {
    /// What the server does with a request.
    enum Reply: Sendable {
        /// Writes these bytes, then closes the connection.
        case bytes([UInt8])
        /// Closes the connection without a byte.
        case close
        /// Never answers; the connection stays open until the server stops.
        case hang
    }

    /// A request as it arrived.
    struct Received: Sendable {
        /// The request line and header lines, without the blank line.
        var head: [String]
        var body: [UInt8]

        var requestLine: String { head.first ?? "" }

        /// The first value of a header field, by case-insensitive name.
        func header(_ name: String) -> String? {
            for line in head.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                if line[..<colon].lowercased() == name.lowercased() {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    private struct State {
        var stopped = false
        var received: [Received] = []
        var connections: Set<Int32> = []
    }

    let port: UInt16
    var base: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }
    private let listener: Int32
    private let state = Locked(State())
    private let reply: @Sendable (Received) -> Reply

    /// Starts listening; `reply` decides each answer.
    init(_ reply: @escaping @Sendable (Received) -> Reply) throws {
        self.reply = reply
        let (listener, port) = try Self.openListener()
        self.listener = listener
        self.port = port
        Thread { [self] in acceptLoop() }.start()
    }

    /// A server answering every request with the same reply.
    convenience init(always reply: Reply) throws {
        try self.init { _ in reply }
    }

    /// The requests received so far.
    var received: [Received] { state.withLock { $0.received } }

    /// Stops accepting, ends every open connection (a hanging one too) and closes the socket.
    func stop() {
        let open = state.withLock(waking: .all) { state in
            state.stopped = true
            return state.connections
        }
        for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// A full HTTP/1.1 answer with a `Content-Length` for `body`.
    static func answer(
        _ status: Int, _ reason: String, headers: [(String, String)] = [], body: String = ""
    ) -> Reply {
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return .bytes(Array((head + body).utf8))
    }

    /// A JSON answer.
    static func json(_ status: Int, _ reason: String, _ body: String, headers: [(String, String)] = []) -> Reply {
        answer(status, reason, headers: [("Content-Type", "application/json")] + headers, body: body)
    }

    /// An HTML page, as a proxy or a misconfigured server would send.
    static func html(_ status: Int, _ reason: String) -> Reply {
        answer(
            status, reason, headers: [("Content-Type", "text/html")],
            body: "<!doctype html><html><body><h1>\(status) \(reason)</h1></body></html>")
    }

    // MARK: Sockets

    private static func openListener() throws -> (Int32, UInt16) {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw FakeServerError("socket failed") }
        var yes: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard bound, listen(socketFD, 64) == 0 else {
            close(socketFD)
            throw FakeServerError("bind or listen failed")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) == 0 }
        }
        guard named else {
            close(socketFD)
            throw FakeServerError("getsockname failed")
        }
        return (socketFD, UInt16(bigEndian: address.sin_port))
    }

    /// A port nothing listens on: bound, then closed.
    static func closedPort() throws -> UInt16 {
        let (socketFD, port) = try openListener()
        close(socketFD)
        return port
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let accepted = state.withLock { state in
                guard !state.stopped else { return false }
                state.connections.insert(connection)
                return true
            }
            guard accepted else {
                close(connection)
                return
            }
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer {
            state.withLock { _ = $0.connections.remove(connection) }
            close(connection)
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = read(connection) else { return }
        state.withLock { $0.received.append(request) }
        switch reply(request) {
        case .bytes(let bytes):
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes {
                    send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 { break }
                offset += sent
            }
            shutdown(connection, Int32(SHUT_WR))
        case .close:
            shutdown(connection, Int32(SHUT_RDWR))
        case .hang:
            state.wait { $0.stopped ? () : nil }
        }
    }

    /// Reads one request: the head up to the blank line, then `Content-Length` bytes of body.
    private func read(_ connection: Int32) -> Received? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var expected = 0
        while true {
            if headEnd == nil, let end = bytes.firstRange(of: separator)?.upperBound {
                headEnd = end
                let head = String(decoding: bytes[..<end], as: UTF8.self)
                let request = Received(head: Self.lines(head), body: [])
                expected = end + (request.header("Content-Length").flatMap { Int($0) } ?? 0)
            }
            if let headEnd, bytes.count >= expected {
                let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
                return Received(head: Self.lines(head), body: Array(bytes[headEnd..<expected]))
            }
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            bytes += buffer[0..<count]
        }
    }

    private static func lines(_ head: String) -> [String] {
        head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }
}

struct FakeServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
