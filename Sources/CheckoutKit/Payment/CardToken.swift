/// A card as the payment provider's token (`tok_visa`), the only form in which the store ever
/// sees a card.
///
/// A token is `tok_` followed by 1 to 64 letters, digits or underscores, and never contains
/// anything that looks like a card number.
public struct CardToken: Hashable, Sendable, CustomStringConvertible {
    public static let prefix = "tok_"
    public static let maximumLength = 68

    public let rawValue: String

    /// - Throws: ``CheckoutError/cardNumberRejected`` when the text contains something that looks
    ///   like a card number (checked first, so a card number is never described as a bad token),
    ///   ``CheckoutError/invalidCardToken`` for any other malformed text.
    public init(_ text: String) throws(CheckoutError) {
        if CardNumberDetector.containsCardNumber(text) { throw .cardNumberRejected }
        guard text.hasPrefix(CardToken.prefix), text.utf8.count > CardToken.prefix.utf8.count,
            text.utf8.count <= CardToken.maximumLength,
            text.utf8.allSatisfy({ byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
            })
        else { throw .invalidCardToken }
        rawValue = text
    }

    /// A token known to be well formed (the sandbox's own, ``SandboxCard``).
    init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}
