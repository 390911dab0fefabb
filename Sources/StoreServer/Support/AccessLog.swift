import Foundation
import HTTPServer

/// Writes one structured line per request: method, route, status, duration, bytes — never a
/// header, a query string, a body, a token, a password or card data.
///
/// Lines are JSON objects, written with one `write(2)` each so lines from different threads never
/// interleave.
public struct AccessLog: Sendable {
    let sink: @Sendable (String) -> Void

    public init(sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// Lines go to standard error (standard output carries the `listening on` line).
    public static let standardError = AccessLog { line in
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { buffer in
            _ = write(STDERR_FILENO, buffer.baseAddress, buffer.count)
        }
    }

    /// Discards every line.
    public static let discard = AccessLog { _ in }

    func record(_ entry: AccessLogEntry) {
        let milliseconds =
            Double(entry.duration.components.attoseconds) / 1e15
            + Double(entry.duration.components.seconds) * 1_000
        let fields: [(String, String)] = [
            ("time", JSONText.string(Date().formatted(.iso8601))),
            ("method", JSONText.string(entry.method.rawValue)),
            ("route", JSONText.string(entry.route)),
            ("status", String(entry.status.code)),
            ("duration_ms", String(format: "%.3f", milliseconds)),
            ("bytes", String(entry.bodyBytes)),
        ]
        sink("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
    }
}

/// Minimal JSON text for log lines.
enum JSONText {
    /// `text` as a JSON string literal, with quotes, backslashes and control characters escaped.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where control.value < 0x20:
                result += String(format: "\\u%04x", control.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
