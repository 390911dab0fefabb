/// JSON text written piece by piece, strings escaped as `JSONEncoder` escapes them with
/// `.withoutEscapingSlashes` (the order's answer, the server's log lines, analytics properties).
package struct JSONText {
    package var bytes: [UInt8] = []

    package init() {}

    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    package mutating func integer(_ value: Int64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    package mutating func money(_ money: Money) {
        raw("{\"amount\":")
        string(money.amountText)
        raw(",\"currency\":")
        string(money.currency.code)
        raw("}")
    }

    package mutating func string(_ text: String) {
        Self.append(text, to: &bytes)
    }

    /// Appends `text` as a JSON string literal: quotes, backslashes and control characters escaped,
    /// everything else (UTF-8 included) as it is. The runs between escapes are copied whole.
    package static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        bytes.append(UInt8(ascii: "\""))
        text.withUTF8 { source in
            var run = 0
            for (index, byte) in source.enumerated() where needsEscaping(byte) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[run..<index]))
                appendEscaped(byte, to: &bytes)
                run = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[run...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether `byte` is written escaped in a JSON string literal: a quote, a backslash or a
    /// control character.
    @inlinable package static func needsEscaping(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
    }

    private static func appendEscaped(_ byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): bytes += #"\""#.utf8
        case UInt8(ascii: "\\"): bytes += #"\\"#.utf8
        case 0x0A: bytes += #"\n"#.utf8
        case 0x0D: bytes += #"\r"#.utf8
        case 0x09: bytes += #"\t"#.utf8
        case 0x08: bytes += #"\b"#.utf8
        case 0x0C: bytes += #"\f"#.utf8
        default:
            bytes += #"\u00"#.utf8
            bytes.append(hexDigits[Int(byte >> 4)])
            bytes.append(hexDigits[Int(byte & 0x0F)])
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
