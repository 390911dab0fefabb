/// The key that makes one checkout attempt happen at most once, however often it is sent.
///
/// 1 to 255 visible ASCII characters (docs/BEHAVIOUR.md §9). A key made by the store's own clients is 32
/// lowercase hex digits from 128 random bits.
public struct IdempotencyKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public static let maximumLength = 255

    public let rawValue: String

    /// The key `rawValue`, or `nil` when it is empty, longer than 255 characters, or holds
    /// anything but visible ASCII (no spaces, no control characters, no non-ASCII).
    public init?(rawValue: String) {
        let utf8 = rawValue.utf8
        guard !utf8.isEmpty, utf8.count <= IdempotencyKey.maximumLength,
            utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        self.rawValue = rawValue
    }

    /// A fresh key of 128 random bits that does not look like a card number.
    ///
    /// About 1 in 1,300 such keys holds 13 to 19 digits between two letters that pass for a card
    /// number (`d400904433402517f5f5…`), and the store refuses any request carrying one, unseen
    /// (``CardNumberDetector``): such a draw is thrown away and another made.
    public static func random(using generator: inout some RandomNumberGenerator) -> IdempotencyKey {
        while true {
            let high = generator.next() as UInt64
            let low = generator.next() as UInt64
            let hex = hex16(high) + hex16(low)
            guard !CardNumberDetector.containsCardNumber(hex) else { continue }
            return IdempotencyKey(rawValue: hex) ?? IdempotencyKey(unchecked: hex)
        }
    }

    /// A fresh key from the system's cryptographic random source.
    public static func random() -> IdempotencyKey {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    private init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    private static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public var description: String { rawValue }
}
