import Foundation
import HTTPServer

#if canImport(Glibc)
import Glibc
#endif

/// A response as read off the wire by the test client.
struct WireResponse: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

struct ClientError: Error, CustomStringConvertible {
    var description: String
}

/// A minimal blocking HTTP/1.1 client over one TCP connection, so tests control exactly what is
/// sent (keep-alive, oversized and malformed requests). Every call has a 10-second timeout.
/// `@unchecked Sendable`: a test hands a connection from the thread that opened it to the one
/// that reads it, never using it from two threads at once.
final class RawConnection: @unchecked Sendable {
    let socketFD: Int32
    private var buffer: [UInt8] = []

    /// Connects to `port` on 127.0.0.1, from `source` (another loopback address such as
    /// `127.0.0.2`, so that a test can play clients at different addresses) when given.
    init(port: Int, timeoutSeconds: Int = 10, from source: String? = nil) throws {
        socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw ClientError(description: "socket failed") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(socketFD)
                throw ClientError(description: "bind to \(source) failed: errno \(errno)")
            }
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socketFD, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            let error = errno
            close(socketFD)
            throw ClientError(description: "connect failed: errno \(error)")
        }
    }

    deinit {
        close(socketFD)
    }

    /// Sends all of `bytes`; throws when the peer closed or reset the connection.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { raw in
                Glibc.send(socketFD, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw ClientError(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Sends a whole request with a `Content-Length` body.
    func sendRequest(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\n"
        for (name, value) in headers {
            head += "\(name): \(value)\r\n"
        }
        if !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        try send(Array(head.utf8) + body)
    }

    /// Reads one response; `head` for a response to HEAD (no body follows).
    func readResponse(head: Bool = false) throws -> WireResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = find(separator, in: buffer)
            if headerEnd == nil {
                guard try fill() else { throw ClientError(description: "connection closed before a response") }
            }
        }
        guard let headerEnd else { throw ClientError(description: "unreachable") }
        let headText = String(decoding: buffer[..<headerEnd], as: UTF8.self)
        buffer.removeFirst(headerEnd + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw ClientError(description: "bad status line")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(
                name: String(line[..<colon]),
                value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = head ? 0 : Int(headers["Content-Length"] ?? "0") ?? 0
        while buffer.count < length {
            guard try fill() else { throw ClientError(description: "connection closed inside a body") }
        }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return WireResponse(status: status, headers: headers, body: body)
    }

    /// Whether the peer closed (or reset) the connection within `seconds`: `false` when it is still
    /// open then. Anything the peer sent before is skipped.
    func closes(within seconds: Double) -> Bool {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socketFD, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    /// Whether the peer closed the connection (reads until end of stream or timeout).
    func isClosedByPeer() -> Bool {
        (try? fill()) != true
    }

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(socketFD, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw ClientError(description: "recv failed: errno \(errno)") }
        if count == 0 { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}

/// Runs blocking client code on a thread of its own, keeping the (small) cooperative pool free for
/// the server's asynchronous handlers.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.start()
    }
}

/// One request on a new connection.
func fetch(
    port: Int, _ target: String, method: String = "GET", headers: [(String, String)] = [], body: [UInt8] = []
) async throws -> WireResponse {
    try await onThread {
        let connection = try RawConnection(port: port)
        try connection.sendRequest(method, target, headers: headers, body: body)
        return try connection.readResponse(head: method == "HEAD")
    }
}

/// Whether a TCP connection to the port is refused.
func connectionRefused(port: Int) -> Bool {
    do {
        _ = try RawConnection(port: port, timeoutSeconds: 2)
        return false
    } catch {
        return true
    }
}

/// Sends `count` requests, each on its own connection, before reading any response, and returns
/// the status codes: the server holds all of them at the same time.
func fetchConcurrently(port: Int, count: Int, target: String) throws -> [Int] {
    let connections = try (0..<count).map { _ in try RawConnection(port: port) }
    for connection in connections {
        try connection.sendRequest("GET", target)
    }
    var statuses = [Int](repeating: 0, count: count)
    for (index, connection) in connections.enumerated() {
        statuses[index] = try connection.readResponse().status
    }
    return statuses
}
