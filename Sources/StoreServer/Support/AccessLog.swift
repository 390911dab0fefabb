import CheckoutKit
import Foundation
import HTTPServer

/// Writes one structured line per request: time, method, route, status, duration, bytes — never a
/// header, a query string, a body, a token, a password or card data.
///
/// Lines are JSON objects built directly as bytes (this runs for every request, on the network
/// threads, so it avoids Foundation's formatters), each written with one `write(2)` so lines from
/// different threads never interleave.
public struct AccessLog: Sendable {
    let sink: @Sendable ([UInt8]) -> Void

    /// A log that hands each line (UTF-8, without the newline) to `sink`.
    public init(sink: @escaping @Sendable ([UInt8]) -> Void) {
        self.sink = sink
    }

    /// Lines go to standard error (standard output carries the `listening on` line).
    public static let standardError = AccessLog { line in
        var bytes = line
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { buffer in
            _ = write(STDERR_FILENO, buffer.baseAddress, buffer.count)
        }
    }

    /// Discards every line.
    public static let discard = AccessLog { _ in }

    func record(_ entry: AccessLogEntry) {
        var line: [UInt8] = []
        line.reserveCapacity(160)
        line += #"{"time":""#.utf8
        Self.appendTimestamp(to: &line)
        line += #"","method":"#.utf8
        JSONText.append(entry.method.rawValue, to: &line)
        line += #","route":"#.utf8
        // Unmatched requests are logged by their path, which is the client's text: never let a
        // card number typed into a URL reach the log. (Route patterns hold no digits.)
        let route = entry.route
        JSONText.append(
            route.utf8.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
                && CardNumberDetector.containsCardNumber(route) ? "(redacted)" : route, to: &line)
        line += #","status":"#.utf8
        Self.appendDecimal(Int64(entry.status.code), to: &line)
        line += #","duration_ms":"#.utf8
        let components = entry.duration.components
        let microseconds = max(0, components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000)
        Self.appendDecimal(microseconds / 1_000, to: &line)
        line.append(UInt8(ascii: "."))
        Self.appendDecimal(microseconds % 1_000, to: &line, width: 3)
        line += #","bytes":"#.utf8
        Self.appendDecimal(Int64(entry.bodyBytes), to: &line)
        line.append(UInt8(ascii: "}"))
        sink(line)
    }

    /// `2026-12-02T12:55:48.123Z`, from the real-time clock.
    static func appendTimestamp(to line: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        appendDecimal(Int64(parts.tm_year) + 1_900, to: &line, width: 4)
        line.append(UInt8(ascii: "-"))
        appendDecimal(Int64(parts.tm_mon) + 1, to: &line, width: 2)
        line.append(UInt8(ascii: "-"))
        appendDecimal(Int64(parts.tm_mday), to: &line, width: 2)
        line.append(UInt8(ascii: "T"))
        appendDecimal(Int64(parts.tm_hour), to: &line, width: 2)
        line.append(UInt8(ascii: ":"))
        appendDecimal(Int64(parts.tm_min), to: &line, width: 2)
        line.append(UInt8(ascii: ":"))
        appendDecimal(Int64(parts.tm_sec), to: &line, width: 2)
        line.append(UInt8(ascii: "."))
        appendDecimal(Int64(now.tv_nsec / 1_000_000), to: &line, width: 3)
        line.append(UInt8(ascii: "Z"))
    }

    /// The decimal digits of a non-negative `value`, left-padded with zeros to `width`.
    static func appendDecimal(_ value: Int64, to line: inout [UInt8], width: Int = 1) {
        var digits: [UInt8] = []
        var rest = max(0, value)
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        if digits.count < width { digits += [UInt8](repeating: UInt8(ascii: "0"), count: width - digits.count) }
        line += digits.reversed()
    }
}

/// Minimal JSON text for log lines.
enum JSONText {
    /// Appends `text` as a JSON string literal, quotes, backslashes and control characters escaped.
    static func append(_ text: String, to line: inout [UInt8]) {
        line.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): line += #"\""#.utf8
            case UInt8(ascii: "\\"): line += #"\\"#.utf8
            case UInt8(ascii: "\n"): line += #"\n"#.utf8
            case UInt8(ascii: "\r"): line += #"\r"#.utf8
            case UInt8(ascii: "\t"): line += #"\t"#.utf8
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                line += #"\u00"#.utf8
                line.append(hex[Int(byte >> 4)])
                line.append(hex[Int(byte & 0xF)])
            default: line.append(byte)  // UTF-8 passes through whole
            }
        }
        line.append(UInt8(ascii: "\""))
    }
}
