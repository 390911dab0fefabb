/// Percent-encoding for the addresses the pages write.
enum QueryString {
    /// `?name=value&…` with every name and value percent-encoded; empty for no parameters.
    static func encode(_ parameters: [(String, String)]) -> String {
        guard !parameters.isEmpty else { return "" }
        return "?" + parameters.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    /// `text` with every byte outside the unreserved characters (`A–Z a–z 0–9 - . _ ~`) written
    /// as `%XX`, so it can sit in a path segment or a query value.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                escaped.unicodeScalars.append("%")
                escaped.unicodeScalars.append(hex[Int(byte >> 4)])
                escaped.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return escaped
    }
}
