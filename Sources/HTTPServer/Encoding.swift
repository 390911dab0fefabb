/// Percent-decoding of request targets and cookie values, and JSON string escaping for error
/// bodies. Decoding is lenient: a `%` not followed by two hex digits is kept as it is, and bytes
/// that are not UTF-8 become U+FFFD, so no input can make it fail.
enum Encoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`).
    static func percentDecoded(_ text: Substring, plusAsSpace: Bool = false) -> String {
        var bytesInPlace = text
        let plain = bytesInPlace.withUTF8 { bytes in
            !bytes.contains { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }
        }
        guard !plain else { return String(text) }
        let utf8 = text.utf8
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"),
                let first = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex), first != utf8.endIndex,
                let second = utf8.index(first, offsetBy: 1, limitedBy: utf8.endIndex), second != utf8.endIndex,
                let high = hexValue(utf8[first]), let low = hexValue(utf8[second])
            {
                bytes.append(high << 4 | low)
                index = utf8.index(after: second)
                continue
            }
            bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = utf8.index(after: index)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Percent-encodes every byte for which `isAllowed` is false, and `%` itself.
    static func percentEncoded(_ text: String, allowing isAllowed: (UInt8) -> Bool) -> String {
        guard text.utf8.contains(where: { !isAllowed($0) || $0 == UInt8(ascii: "%") }) else {
            return text
        }
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isAllowed(byte) && byte != UInt8(ascii: "%") {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
