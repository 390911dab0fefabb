/// Finds text that looks like a payment card number, so the store can refuse it unseen.
///
/// A card number here is 13 to 19 digits that pass the Luhn check and start the way card numbers
/// do, written either together (`4242424242424242`) or in the groups cards are printed in,
/// separated by single spaces or dashes (`4242 4242 4242 4242`, `3782-822463-10005`).
///
/// Ordinary data is never mistaken for one:
/// - groups must follow a printed layout — fours (the last group may be shorter), or Amex's and
///   Diners' 4-6-5 and 4-6-4 — so a UUID's 8-4-4-4-12 groups or a date's 4-2-2 never add up to a
///   card number;
/// - a run of digits written together is judged whole, never as a slice of a longer number;
/// - card numbers start with 2–6 (or 1 for the 15-digit UATP cards), so timestamps in seconds,
///   milliseconds, microseconds and nanoseconds (all starting with 1 until 2033) are not cards.
public enum CardNumberDetector {
    public static let digitCountRange = 13...19

    /// Whether `text` contains anything that looks like a card number.
    public static func containsCardNumber(_ text: String) -> Bool {
        var groups: [[UInt8]] = []  // the digit groups of the current run
        var current: [UInt8] = []
        var pendingSeparator = false

        func endRun() -> Bool {
            if !current.isEmpty { groups.append(current) }
            let found = runContainsCardNumber(groups)
            groups.removeAll(keepingCapacity: true)
            current.removeAll(keepingCapacity: true)
            pendingSeparator = false
            return found
        }

        for byte in text.utf8 {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if pendingSeparator {
                    groups.append(current)
                    current = []
                    pendingSeparator = false
                }
                current.append(byte - UInt8(ascii: "0"))
            } else if (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-")) && !current.isEmpty && !pendingSeparator
            {
                pendingSeparator = true
            } else {
                if endRun() { return true }
            }
        }
        return endRun()
    }

    /// Whether `digits` (decimal digit values, most significant first), taken as one number, could
    /// be a card number: 13–19 digits, a card's leading digit, and the Luhn check.
    public static func isCardNumber(_ digits: [UInt8]) -> Bool {
        guard let first = digits.first else { return false }
        let plausible: ClosedRange<Int>
        switch first {
        case 1: plausible = 15...15  // UATP
        case 2: plausible = 16...19  // Mastercard 2-series, Mir
        case 3, 4, 5, 6: plausible = digitCountRange
        default: return false
        }
        return plausible.contains(digits.count) && passesLuhn(digits)
    }

    /// The group lengths cards are printed in, besides fours with a shorter last group.
    private static let otherLayouts: [[Int]] = [[4, 6, 5], [4, 6, 4]]

    /// Whether a run of digit groups holds a card number: one group judged whole, or consecutive
    /// groups that follow a printed layout.
    private static func runContainsCardNumber(_ groups: [[UInt8]]) -> Bool {
        for start in groups.indices {
            if isCardNumber(groups[start]) { return true }
            var digits = groups[start]
            var lengths = [groups[start].count]
            for end in (start + 1)..<max(groups.count, start + 1) {
                digits += groups[end]
                lengths.append(groups[end].count)
                if digits.count > digitCountRange.upperBound { break }
                if isPrintedLayout(lengths) && isCardNumber(digits) { return true }
            }
        }
        return false
    }

    /// Fours with a last group of one to four digits, or one of ``otherLayouts``.
    private static func isPrintedLayout(_ lengths: [Int]) -> Bool {
        guard let last = lengths.last, lengths.count >= 2 else { return false }
        if lengths.dropLast().allSatisfy({ $0 == 4 }) && (1...4).contains(last) { return true }
        return otherLayouts.contains(lengths)
    }

    /// The Luhn (mod 10) check over decimal digits, most significant first.
    public static func passesLuhn(_ digits: [UInt8]) -> Bool {
        var sum = 0
        for (offset, digit) in digits.reversed().enumerated() {
            var value = Int(digit)
            if offset % 2 == 1 {
                value *= 2
                if value > 9 { value -= 9 }
            }
            sum += value
        }
        return sum % 10 == 0
    }
}
