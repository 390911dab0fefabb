/// Percent-encoding for the back office's addresses: a path segment or a query value keeps only
/// letters, digits and `-._~`; everything else is written as `%XX` of its UTF-8 bytes.
enum AdminURL {
    /// `text` safe to stand as one path segment or one query value.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(hex[Int(byte >> 4)])
                result.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return result
    }

    /// `?a=1&b=x%20y` from the pairs whose value is not empty; nothing when none is left.
    static func query(_ parameters: [(String, String)]) -> String {
        let pairs = parameters.filter { !$0.1.isEmpty }.map { "\(escaped($0.0))=\(escaped($0.1))" }
        return pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&")
    }
}
