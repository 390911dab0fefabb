import Concurrency
import Foundation
import StoreServerTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The reliability tests' HTTP client: HTTP/1.1 over a plain socket to 127.0.0.1, one connection
/// per request (`Connection: close`), each exchange blocking a thread of its own pool.
///
/// Not `URLSession`: on Linux, FoundationNetworking watches libcurl's sockets with dispatch
/// sources, and libcurl closes a socket before its source's cancellation has finished. When
/// connections are refused and reset all the time — servers killed with SIGKILL, which is what
/// these tests do — libdispatch now and then traps in
/// `_dispatch_source_refs_finalize_unregistration` and takes the whole test process down
/// (swift-corelibs-foundation issue 4791 and its family).
enum WireHTTP {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Enough threads for every shopper of the largest run (100) and the servers' probes, each
    /// blocked in one exchange at a time.
    private static let pool = BlockingPool<Void>(name: "wire-http", threads: 128) { _ in () }

    /// Sends `method` `path` to the server at `base` (`http://127.0.0.1:PORT`) with a bearer
    /// `token`, an `Idempotency-Key` and a JSON body when given; answers the status and the body.
    /// Throws when the connection is refused, reset or closed before the whole answer came, or
    /// after `timeoutSeconds` without progress.
    static func send(
        _ base: URL, _ method: String, _ path: String, token: String? = nil, key: String? = nil,
        json: String? = nil, timeoutSeconds: Int = 5
    ) async throws -> (Int, Data) {
        guard base.host == "127.0.0.1", let port = base.port.flatMap(UInt16.init(exactly:)), path.hasPrefix("/")
        else {
            throw Failure(description: "not a loopback URL and path: \(base) \(path)")
        }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let key { head += "Idempotency-Key: \(key)\r\n" }
        let body = Array((json ?? "").utf8)
        if json != nil { head += "Content-Type: application/json\r\n" }
        if json != nil || method == "POST" || method == "PUT" || method == "PATCH" {
            head += "Content-Length: \(body.count)\r\n"
        }
        let request = Array((head + "\r\n").utf8) + body
        let answer = try await pool.run { _ in try exchange(request, port: port, timeoutSeconds: timeoutSeconds) }
        return (answer.status, Data(answer.body))
    }

    /// One exchange on a new connection, read to its end.
    private static func exchange(
        _ request: [UInt8], port: UInt16, timeoutSeconds: Int
    ) throws(Failure) -> (status: Int, body: [UInt8]) {
        let socketFD: Int32
        do {
            socketFD = try TestStore.connectSocket(port: port, timeoutSeconds: timeoutSeconds)
        } catch {
            throw Failure(description: "\(error)")
        }
        defer { close(socketFD) }
        var sent = 0
        while sent < request.count {
            let count = request.withUnsafeBytes {
                Glibc.send(socketFD, $0.baseAddress.map { $0 + sent }, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += count
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socketFD, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else { throw Failure(description: "recv: errno \(errno)") }
            received += chunk[..<count]
        }
        return try parse(received)
    }

    /// The status and the body of a whole answer: its body as long as `Content-Length` says, or
    /// its chunks put together, or everything up to the end of the connection.
    static func parse(_ answer: [UInt8]) throws(Failure) -> (status: Int, body: [UInt8]) {
        let separator = Array("\r\n\r\n".utf8)
        guard let headEnd = answer.firstRange(of: separator) else {
            throw Failure(description: "the answer ended before its header fields did")
        }
        let lines = String(decoding: answer[..<headEnd.lowerBound], as: UTF8.self).split(separator: "\r\n")
        let statusLine = lines.first.map { $0.split(separator: " ") } ?? []
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            throw Failure(description: "no status line")
        }
        var length: Int?
        var chunked = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" { length = Int(value) }
            if name == "transfer-encoding" { chunked = value.lowercased().contains("chunked") }
        }
        let rest = Array(answer[headEnd.upperBound...])
        if chunked { return (status, try dechunk(rest)) }
        guard let length else { return (status, rest) }
        guard rest.count >= length else { throw Failure(description: "the body was cut short") }
        return (status, Array(rest.prefix(length)))
    }

    private static func dechunk(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var body: [UInt8] = []
        var position = 0
        let lineEnd = Array("\r\n".utf8)
        while true {
            guard let end = bytes[position...].firstRange(of: lineEnd),
                let size = Int(
                    String(decoding: bytes[position..<end.lowerBound], as: UTF8.self)
                        .split(separator: ";").first ?? "", radix: 16)
            else { throw Failure(description: "a chunk's size was cut short") }
            position = end.upperBound
            if size == 0 { return body }
            guard bytes.count >= position + size + 2 else { throw Failure(description: "a chunk was cut short") }
            body += bytes[position..<(position + size)]
            position += size + 2
        }
    }
}
