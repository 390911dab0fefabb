import CSodium

/// A bearer secret (a session token): 256 random bits, written as 43 URL-safe base64 characters.
///
/// Only ``hash`` is ever stored; the token itself is handed to the client once and never logged.
public struct SecretToken: Hashable, Sendable {
    public static let byteCount = 32

    /// The token as the client sends it back.
    public let text: String

    /// A fresh token from the system's cryptographic random source (`getrandom`).
    public static func generate() -> SecretToken {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        while bytes.count < byteCount {
            let word = generator.next() as UInt64
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return SecretToken(validatedText: Base64URL.encode(bytes))
    }

    private init(validatedText: String) {
        text = validatedText
    }

    /// A token the client sent, or `nil` when it cannot be one of ours (wrong length or alphabet),
    /// so malformed input never reaches the database.
    public init?(_ text: String) {
        var text = text
        guard text.utf8.count == 43, text.withUTF8({ $0.allSatisfy(Base64URL.isAlphabetByte) }) else { return nil }
        self.text = text
    }

    /// SHA-256 of the token: what the database keeps to recognise it.
    public var hash: [UInt8] {
        SHA256.digest(Array(text.utf8))
    }
}

/// SHA-256 through libsodium.
public enum SHA256 {
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        _ = Sodium.isReady
        var output = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_bytes()))
        _ = crypto_hash_sha256(&output, bytes, UInt64(bytes.count))
        return output
    }

    /// The digest as lowercase hex.
    public static func hexDigest(_ bytes: [UInt8]) -> String {
        digest(bytes).map { byte in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }.joined()
    }
}

/// URL-safe base64 without padding (RFC 4648 §5).
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func isAlphabetByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << UInt32(16 - 8 * offset) }
            let characters = chunk.count + 1
            for position in 0..<characters {
                output.append(alphabet[Int((value >> UInt32(18 - 6 * position)) & 63)])
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
