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
    let sink: @Sendable ([UInt8]) -> Void
    /// Writes out lines the sink holds back; the server calls it every 100 ms and when it stops.
    let flush: @Sendable () -> Void

    /// A log that hands each line (UTF-8, without the newline) to `sink`.
    public init(sink: @escaping @Sendable ([UInt8]) -> Void, flush: @escaping @Sendable () -> Void = {}) {
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

    /// The access-log line of a request. Built by copying bytes — the literals from static
    /// strings, the numbers written into a few bytes of stack — since it runs for every request.
    func record(_ entry: AccessLogEntry) {
        var line = Self.start(level: nil, requestID: entry.requestID)
        Self.append(#","method":"#, to: &line)
        JSONText.append(Self.loggable(entry.method.rawValue), to: &line)
        Self.append(#","route":"#, to: &line)
        JSONText.append(Self.loggable(entry.route), to: &line)
        Self.append(#","status":"#, to: &line)
        Self.appendDecimal(Int64(entry.status.code), to: &line)
        Self.append(#","duration_ms":"#, to: &line)
        let components = entry.duration.components
        let microseconds = max(0, components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000)
        Self.appendDecimal(microseconds / 1_000, to: &line)
        line.append(UInt8(ascii: "."))
        Self.appendDecimal(microseconds % 1_000, to: &line, width: 3)
        Self.append(#","bytes":"#, to: &line)
        Self.appendDecimal(Int64(entry.bodyBytes), to: &line)
        line.append(UInt8(ascii: "}"))
        sink(line)
    }

    /// One line for an unexpected error (a 500): the request id, method and route, and the error's
    /// type (for a database error, its kind and code) — not its text, which may quote data from the
    /// request.
    func recordUnexpectedError(_ error: any Error, method: String, route: String, requestID: UInt64) {
        var line = Self.start(level: "error", requestID: requestID)
        Self.append(#","event":"unexpected_error","method":"#, to: &line)
        JSONText.append(Self.loggable(method), to: &line)
        Self.append(#","route":"#, to: &line)
        JSONText.append(Self.loggable(route), to: &line)
        Self.append(#","error_type":"#, to: &line)
        JSONText.append(String(reflecting: type(of: error)), to: &line)
        if let error = error as? DatabaseError {
            // The kind and the code (an SQLSTATE, or SQLite's result code) name what failed without
            // quoting anything.
            Self.append(#","error_kind":"#, to: &line)
            JSONText.append(String(describing: error.kind), to: &line)
            Self.append(#","error_code":"#, to: &line)
            JSONText.append(Self.loggable(error.code), to: &line)
        }
        line.append(UInt8(ascii: "}"))
        sink(line)
    }

    /// One line for a message of libmicrohttpd's own, which may quote what a client sent: at most
    /// 300 bytes of it, and none of it if it holds something like a card number.
    func recordLibraryMessage(_ message: String) {
        var line = Self.start(level: "warning", requestID: nil)
        Self.append(#","event":"http_library","message":"#, to: &line)
        let text =
            CardNumberDetector.containsCardNumber(message)
            ? "(redacted)" : String(decoding: message.utf8.prefix(300), as: UTF8.self)
        JSONText.append(text, to: &line)
        line.append(UInt8(ascii: "}"))
        sink(line)
    }

    /// `{"time":"…"` with the level and the request id when there are.
    private static func start(level: String?, requestID: UInt64?) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(180)
        append(#"{"time":""#, to: &line)
        appendTimestamp(to: &line)
        line.append(UInt8(ascii: "\""))
        if let level {
            append(#","level":""#, to: &line)
            line += level.utf8
            line.append(UInt8(ascii: "\""))
        }
        if let requestID {
            append(#","request_id":""#, to: &line)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { digits in
                for index in 0..<16 {
                    let nibble = UInt8(truncatingIfNeeded: (requestID >> UInt64(60 - 4 * index)) & 15)
                    digits[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                }
                line.append(contentsOf: UnsafeBufferPointer(digits))
            }
            line.append(UInt8(ascii: "\""))
        }
        return line
    }

    /// Appends a literal's bytes with one copy.
    private static func append(_ literal: StaticString, to line: inout [UInt8]) {
        literal.withUTF8Buffer { line.append(contentsOf: $0) }
    }

    /// The request line's parts as the log writes them. A method the server does not know and the
    /// path of an unmatched request are the client's text: never let a card number typed into
    /// them reach the log, written out or percent-encoded once more. (Route patterns and the
    /// standard methods hold no digits.)
    static func loggable(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return text }
        if CardNumberDetector.containsCardNumber(text) { return "(redacted)" }
        if text.utf8.contains(UInt8(ascii: "%")), let decoded = text.removingPercentEncoding,
            CardNumberDetector.containsCardNumber(decoded)
        {
            return "(redacted)"
        }
        return text
    }

    /// `2026-12-02T12:55:48.123Z`, from the real-time clock.
    static func appendTimestamp(to line: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let milliseconds = Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec / 1_000_000)
        InstantText.append(millisecondsSince1970: milliseconds, to: &line)
    }

    /// The decimal digits of a non-negative `value` (a negative one is written as 0), left-padded
    /// with zeros to `width`; written into a few bytes of stack and appended with one copy.
    static func appendDecimal(_ value: Int64, to line: inout [UInt8], width: Int = 1) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = max(0, value)
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            let written = digits.count - start
            if width > written {
                line.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - written))
            }
            line.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
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

    func append(_ line: [UInt8]) {
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
