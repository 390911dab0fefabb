import Foundation

/// The ways a card number reaches the store in the card-number tests: in the groups cards are
/// printed in, with any separator, and percent-encoded as a form or an address carries it.
public enum CardWritings {
    /// `card` in printed groups joined by `separator`: fours, or 4-6-5 / 4-6-4 for 15- and
    /// 14-digit cards when `printedLayout` is set (otherwise always fours).
    public static func grouped(_ card: String, by separator: String, printedLayout: Bool = false) -> String {
        let digits = Array(card)
        var layout = Array(repeating: 4, count: (digits.count + 3) / 4)
        if printedLayout && digits.count == 15 { layout = [4, 6, 5] }
        if printedLayout && digits.count == 14 { layout = [4, 6, 4] }
        var groups: [String] = []
        var index = 0
        for length in layout where index < digits.count {
            groups.append(String(digits[index..<min(index + length, digits.count)]))
            index += length
        }
        return groups.joined(separator: separator)
    }

    /// Every byte of `text` as `%XX`.
    public static func percentEncoded(_ text: String) -> String {
        text.utf8.map { String(format: "%%%02X", $0) }.joined()
    }
}
