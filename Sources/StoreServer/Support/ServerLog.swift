import CheckoutKit
import Concurrency
import Foundation
import HTTPServer
import StoreAPI
import StoreSQL

/// The server's structured log: one JSON line per request (time, request id, method, route,
/// status, duration, bytes), one line per unexpected error (its request id, route and the *type*
/// of the error), and libmicrohttpd's own messages — never a header, a query string, a body, a
/// token, a password or card data.
///
/// Lines are JSON objects built directly as bytes (this runs for every request, on the network
/// threads, so it avoids Foundation's formatters), each written with one `write(2)` so lines from
/// different threads never interleave.
public struct ServerLog: Sendable {
    let sink: @Sendable (UnsafeBufferPointer<UInt8>) -> Void
    /// Writes out lines the sink holds back; the server calls it every 100 ms and when it stops.
    let flush: @Sendable () -> Void

    /// A log that hands each line (UTF-8, without the newline) to `sink`.
    public init(
        sink: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Void, flush: @escaping @Sendable () -> Void = {}
    ) {
        self.sink = sink
        self.flush = flush
    }

    /// Lines go to standard error (standard output carries the `listening on` line), gathered into
    /// writes of up to 4 KiB (one `write(2)` for many requests, each write small enough to reach a
    /// pipe whole) and written out at least every 100 ms and when the server stops. A crash loses
    /// at most the last 100 ms of lines.
    public static let standardError: ServerLog = {
        let buffer = LineBuffer(descriptor: STDERR_FILENO, limit: 4_096)
        return ServerLog(sink: { buffer.append($0) }, flush: { buffer.flush() })
    }()

    /// Discards every line.
    public static let discard = ServerLog { _ in }

    /// The access-log line of a request, written in place (``LineWriter``): it runs for every
    /// request.
    func record(_ entry: AccessLogEntry) {
        let method = Self.loggable(entry.method.rawValue)
        let route = Self.loggable(entry.route)
        let components = entry.duration.components
        let microseconds = max(0, components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000)
        LineWriter.withLine(capacity: Self.capacity(escaping: method.utf8.count + route.utf8.count)) { line in
            Self.start(&line, level: nil, requestID: entry.requestID)
            line.write(#","method":"#)
            line.writeJSONString(method)
            line.write(#","route":"#)
            line.writeJSONString(route)
            line.write(#","status":"#)
            line.writeDecimal(Int64(entry.status.code))
            line.write(#","duration_ms":"#)
            line.writeDecimal(microseconds / 1_000)
            line.write(UInt8(ascii: "."))
            line.writeDecimal(microseconds % 1_000, width: 3)
            line.write(#","bytes":"#)
            line.writeDecimal(Int64(entry.bodyBytes))
            line.write(UInt8(ascii: "}"))
        } _: {
            sink($0)
        }
    }

    /// One line for an unexpected error (a 500): the request id, method and route, and the error's
    /// type (for a database error, its kind and code) — not its text, which may quote data from the
    /// request.
    func recordUnexpectedError(_ error: any Error, method: String, route: String, requestID: UInt64) {
        let method = Self.loggable(method)
        let route = Self.loggable(route)
        let type = String(reflecting: Swift.type(of: error))
        let database = (error as? DatabaseError).map {
            (kind: String(describing: $0.kind), code: Self.loggable($0.code))
        }
        let capacity = Self.capacity(
            escaping: [method, route, type, database?.kind ?? "", database?.code ?? ""].reduce(0) { $0 + $1.utf8.count }
        )
        LineWriter.withLine(capacity: capacity) { line in
            Self.start(&line, level: "error", requestID: requestID)
            line.write(#","event":"unexpected_error","method":"#)
            line.writeJSONString(method)
            line.write(#","route":"#)
            line.writeJSONString(route)
            line.write(#","error_type":"#)
            line.writeJSONString(type)
            if let database {
                // The kind and the code (an SQLSTATE, or SQLite's result code) name what failed
                // without quoting anything.
                line.write(#","error_kind":"#)
                line.writeJSONString(database.kind)
                line.write(#","error_code":"#)
                line.writeJSONString(database.code)
            }
            line.write(UInt8(ascii: "}"))
        } _: {
            sink($0)
        }
    }

    /// One line for a message of libmicrohttpd's own, which may quote what a client sent: at most
    /// 300 bytes of it, and none of it if it holds something like a card number.
    func recordLibraryMessage(_ message: String) {
        let text =
            CardNumberDetector.containsCardNumber(message)
            ? "(redacted)" : String(decoding: message.utf8.prefix(300), as: UTF8.self)
        LineWriter.withLine(capacity: Self.capacity(escaping: text.utf8.count)) { line in
            Self.start(&line, level: "warning", requestID: nil)
            line.write(#","event":"http_library","message":"#)
            line.writeJSONString(text)
            line.write(UInt8(ascii: "}"))
        } _: {
            sink($0)
        }
    }

    /// Room for a line holding strings of `bytes` bytes in all: its fixed parts (under 256 bytes:
    /// the field names, the time, the request id, the numbers) and the strings escaped at their
    /// longest (`\u00XX`, six bytes for one).
    private static func capacity(escaping bytes: Int) -> Int {
        256 + 6 * bytes
    }

    /// `{"time":"…"` with the level and the request id when there are.
    private static func start(_ line: inout LineWriter, level: StaticString?, requestID: UInt64?) {
        line.write(#"{"time":""#)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        line.writeInstant(millisecondsSince1970: Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec / 1_000_000))
        line.write(UInt8(ascii: "\""))
        if let level {
            line.write(#","level":""#)
            line.write(level)
            line.write(UInt8(ascii: "\""))
        }
        if let requestID {
            line.write(#","request_id":""#)
            line.writeHex(requestID)
            line.write(UInt8(ascii: "\""))
        }
    }

    /// The request line's parts as the log writes them. A method the server does not know and the
    /// path of an unmatched request are the client's text: never let a card number typed into
    /// them reach the log, written out or percent-encoded once more. (Route patterns and the
    /// standard methods hold no digits.)
    static func loggable(_ text: String) -> String {
        var bytesInPlace = text
        let hasDigit = bytesInPlace.withUTF8 { bytes in
            bytes.contains { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
        guard hasDigit else { return text }
        if CardNumberDetector.containsCardNumber(text) { return "(redacted)" }
        if text.utf8.contains(UInt8(ascii: "%")), let decoded = text.removingPercentEncoding,
            CardNumberDetector.containsCardNumber(decoded)
        {
            return "(redacted)"
        }
        return text
    }
}

/// Whole lines gathered for one `write(2)`.
final class LineBuffer: Sendable {
    private let pending = Locked<[UInt8]>([])
    private let descriptor: Int32
    private let limit: Int

    init(descriptor: Int32, limit: Int) {
        self.descriptor = descriptor
        self.limit = limit
    }

    func append(_ line: UnsafeBufferPointer<UInt8>) {
        let full = pending.withLock { pending -> [UInt8]? in
            var ready: [UInt8]?
            if pending.count + line.count + 1 > limit, !pending.isEmpty {
                ready = pending
                pending.removeAll(keepingCapacity: true)
            }
            pending += line
            pending.append(UInt8(ascii: "\n"))
            return ready
        }
        if let full { writeOut(full) }
    }

    func flush() {
        let ready = pending.withLock { pending -> [UInt8] in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        if !ready.isEmpty { writeOut(ready) }
    }

    private func writeOut(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
