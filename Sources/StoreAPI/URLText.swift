/// Text made safe to stand in a URL: how the store's client, its API paths and its storefront's
/// links and redirects all percent-encode (RFC 3986), in one place.
public enum URLText {
    /// `text` with every byte outside the unreserved characters (`A–Z a–z 0–9 - . _ ~`) written
    /// as `%XX`, so it can stand as one path segment or one query name or value (`/` included).
    public static func escaped(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `?name=value&…` with every name and value escaped; empty for no parameters.
    public static func query(_ parameters: [(String, String)]) -> String {
        guard !parameters.isEmpty else { return "" }
        return "?" + parameters.map { escaped($0.0) + "=" + escaped($0.1) }.joined(separator: "&")
    }
}
