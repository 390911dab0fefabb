/// A promotion code as the store matches it: trimmed of surrounding whitespace and upper-cased.
///
/// `PromotionCode(" run10 ")` is `RUN10`. Codes are 1 to 32 characters of A–Z, 0–9, `-` and `_`
/// after normalizing; anything else cannot be a code the store issued, so it is rejected early.
public struct PromotionCode: RawRepresentable, Hashable, Sendable {
    public static let maximumLength = 32

    public let rawValue: String

    /// The normalized form of what the shopper typed, or `nil` when it cannot be a code.
    public init?(_ typed: String) {
        let normalized = typed.trimmingWhitespace().uppercased()
        guard !normalized.isEmpty, normalized.count <= PromotionCode.maximumLength,
            normalized.unicodeScalars.allSatisfy(PromotionCode.isAllowed)
        else { return nil }
        rawValue = normalized
    }

    public init?(rawValue: String) {
        self.init(rawValue)
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "0"..."9", "-", "_": true
        default: false
        }
    }
}

extension PromotionCode: CustomStringConvertible {
    public var description: String { rawValue }
}

extension String {
    /// The string without leading and trailing whitespace and newlines.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
