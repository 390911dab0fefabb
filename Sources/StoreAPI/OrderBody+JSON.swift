import CheckoutKit
import Foundation

extension OrderBody {
    /// The order as ``StoreJSON/encoder`` writes it, byte for byte, written directly: a checkout
    /// answers and keeps one for every order paid, and `JSONEncoder` was a twentieth of a
    /// checkout's CPU. An order with refunds (never a fresh one) goes through the encoder.
    public func encodedJSON() throws -> [UInt8] {
        guard refunds.isEmpty else { return Array(try StoreJSON.encoder.encode(self)) }
        var json = JSONText()
        json.bytes.reserveCapacity(320 + lines.count * 200)
        // Keys in sorted order, as the encoder's `.sortedKeys` writes them.
        json.raw("{\"created_at\":")
        json.string(StoreJSON.timestamp(createdAt))
        json.raw(",\"discount\":")
        json.money(discount)
        json.raw(",\"fee\":")
        json.money(fee)
        json.raw(",\"id\":")
        json.string(id)
        json.raw(",\"lines\":[")
        for (index, line) in lines.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("{\"line_total\":")
            json.money(line.lineTotal)
            json.raw(",\"product_id\":")
            json.integer(line.productID)
            json.raw(",\"quantity\":")
            json.integer(Int64(line.quantity))
            json.raw(",\"title\":")
            json.string(line.title)
            json.raw(",\"unit_price\":")
            json.money(line.unitPrice)
            json.raw("}")
        }
        json.raw("],\"payment_method\":{")
        if let brand = paymentMethod.brand {
            json.raw("\"brand\":")
            json.string(brand)
            json.raw(",")
        }
        if let token = paymentMethod.token {
            json.raw("\"token\":")
            json.string(token)
            json.raw(",")
        }
        json.raw("\"type\":")
        json.string(paymentMethod.type)
        json.raw("},\"payment_status\":")
        json.string(paymentStatus)
        if let promotion {
            json.raw(",\"promotion\":")
            json.string(promotion)
        }
        json.raw(",\"refunds\":[],\"shipping\":")
        json.money(shipping)
        json.raw(",\"status\":")
        json.string(status)
        json.raw(",\"subtotal\":")
        json.money(subtotal)
        json.raw(",\"total\":")
        json.money(total)
        json.raw("}")
        return json.bytes
    }
}

/// JSON text written piece by piece, strings escaped as `JSONEncoder` escapes them with
/// `.withoutEscapingSlashes` (the order's answer, the server's log lines).
package struct JSONText {
    var bytes: [UInt8] = []

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func integer(_ value: Int64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func money(_ money: Money) {
        raw("{\"amount\":")
        string(money.amountText)
        raw(",\"currency\":")
        string(money.currency.code)
        raw("}")
    }

    mutating func string(_ text: String) {
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
