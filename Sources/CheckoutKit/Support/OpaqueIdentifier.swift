/// Makes identifiers that reveal nothing: a prefix and 26 base-32 characters from 128 random bits.
public enum OpaqueIdentifier {
    private static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    /// `prefix` followed by 26 characters of 128 bits drawn from `generator`.
    public static func make(prefix: String, using generator: inout some RandomNumberGenerator) -> String {
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        var characters: [UInt8] = []
        characters.reserveCapacity(26)
        for _ in 0..<26 {
            characters.append(alphabet[Int(low & 31)])
            low = (low >> 5) | ((high & 31) << 59)
            high >>= 5
        }
        return prefix + String(decoding: characters, as: UTF8.self)
    }

    /// `prefix` followed by 26 characters from the system's cryptographic random source.
    public static func make(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        return make(prefix: prefix, using: &generator)
    }

    /// Whether `text` is `prefix` followed by 26 characters of the alphabet: what ``make(prefix:)``
    /// returns. Checked before an identifier a client sent goes anywhere else.
    public static func isWellFormed(_ text: String, prefix: String) -> Bool {
        guard text.hasPrefix(prefix) else { return false }
        let rest = text.utf8.dropFirst(prefix.utf8.count)
        return rest.count == 26 && rest.allSatisfy { alphabet.contains($0) }
    }
}
