/// Finds text that looks like a payment card number, so the store can refuse it unseen.
///
/// A card number here is 13 to 19 digits that pass the Luhn check and start the way card numbers
/// do, written either together (`4242424242424242`) or in the groups cards are printed in, whatever
/// separates them: one to three characters that are neither letters nor digits (`4242 4242 4242
/// 4242`, `3782-822463-10005`, `4242.4242.4242.4242`, `4242+4242+…`, `4242_4242_…`, `4242 / 4242 …`,
/// a no-break space or an en dash). A character outside ASCII counts as one, however many bytes it
/// takes.
///
/// Ordinary data is never mistaken for one:
/// - groups must follow a printed layout — fours (the last group may be shorter), or Amex's and
///   Diners' 4-6-5 and 4-6-4 — and be whole (not the digit end of a word such as a UUID's
///   `28e18c258c8f`), so a UUID's 8-4-4-4-12 groups or a date's 4-2-2 never add up to a card number;
/// - a run of digits written together is judged whole, never as a slice of a longer number;
/// - card numbers start with 2–6 (or 1 for the 15-digit UATP cards), so timestamps in seconds,
///   milliseconds, microseconds and nanoseconds (all starting with 1 until 2033) are not cards.
///
/// See docs/RELIABILITY.md ("Card numbers") for what this guards and how it is tested.
public enum CardNumberDetector {
    public static let digitCountRange = 13...19
    /// The most characters that may stand between two groups of a printed card number.
    public static let separatorLengthRange = 1...3

    /// Whether `text` contains anything that looks like a card number.
    public static func containsCardNumber(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var scanner = Scanner()
            for byte in bytes where scanner.consume(byte) { return true }
            return scanner.finish()
        }
    }

    /// Whether `digits` (decimal digit values, most significant first), taken as one number, could
    /// be a card number: 13–19 digits, a card's leading digit, and the Luhn check.
    public static func isCardNumber(_ digits: some Collection<UInt8>) -> Bool {
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

    /// The Luhn (mod 10) check over decimal digits, most significant first.
    public static func passesLuhn(_ digits: some Collection<UInt8>) -> Bool {
        var sum = 0
        var doubled = digits.count % 2 == 0
        for digit in digits {
            var value = Int(digit)
            if doubled {
                value *= 2
                if value > 9 { value -= 9 }
            }
            sum += value
            doubled.toggle()
        }
        return sum % 10 == 0
    }

    /// Reads text byte by byte, collecting runs of digit groups separated by up to three
    /// characters that are not letters or digits, and judges each run when it ends.
    private struct Scanner {
        /// The digits of the current run, and where each of its groups ends.
        var digits: [UInt8] = []
        var groupEnds: [Int] = []
        /// How many characters of a separator have followed the run's last digit (0: none yet).
        var separatorLength = 0
        /// Whether the byte before the run was a letter or digit (its first group is not whole).
        var startsInsideWord = false
        var previousIsWordByte = false

        init() {
            digits.reserveCapacity(32)
            groupEnds.reserveCapacity(8)
        }

        /// Takes the next byte; `true` once a card number was found.
        mutating func consume(_ byte: UInt8) -> Bool {
            defer { previousIsWordByte = Self.isWordByte(byte) }
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if digits.isEmpty { startsInsideWord = previousIsWordByte }
                if separatorLength > 0 {
                    groupEnds.append(digits.count)
                    separatorLength = 0
                }
                digits.append(byte - UInt8(ascii: "0"))
                return false
            }
            if Self.isWordByte(byte) {
                // A letter right after the last digit: the last group is not whole.
                return endRun(endsInsideWord: separatorLength == 0)
            }
            if digits.isEmpty { return false }
            // A UTF-8 continuation byte belongs to the separator character before it.
            if byte & 0xC0 == 0x80 && separatorLength > 0 { return false }
            separatorLength += 1
            if separatorLength > CardNumberDetector.separatorLengthRange.upperBound {
                return endRun(endsInsideWord: false)
            }
            return false
        }

        mutating func finish() -> Bool { endRun(endsInsideWord: false) }

        private mutating func endRun(endsInsideWord: Bool) -> Bool {
            separatorLength = 0
            if digits.isEmpty { return false }
            defer {
                digits.removeAll(keepingCapacity: true)
                groupEnds.removeAll(keepingCapacity: true)
            }
            guard digits.count >= CardNumberDetector.digitCountRange.lowerBound else { return false }
            groupEnds.append(digits.count)
            let count = groupEnds.count
            for start in 0..<count {
                let from = start == 0 ? 0 : groupEnds[start - 1]
                // One group, judged whole.
                if CardNumberDetector.isCardNumber(digits[from..<groupEnds[start]]) { return true }
                // Consecutive whole groups in a printed layout.
                if start == 0 && startsInsideWord { continue }
                var lengths: [Int] = []
                for end in start..<count {
                    lengths.append(groupEnds[end] - (end == 0 ? 0 : groupEnds[end - 1]))
                    let total = groupEnds[end] - from
                    if total > CardNumberDetector.digitCountRange.upperBound { break }
                    if end == count - 1 && endsInsideWord { break }
                    if end > start && Self.isPrintedLayout(lengths)
                        && CardNumberDetector.isCardNumber(digits[from..<groupEnds[end]])
                    {
                        return true
                    }
                }
            }
            return false
        }

        /// Fours with a last group of one to four digits, or Amex's 4-6-5 and Diners' 4-6-4.
        private static func isPrintedLayout(_ lengths: [Int]) -> Bool {
            guard let last = lengths.last else { return false }
            if lengths.dropLast().allSatisfy({ $0 == 4 }) && (1...4).contains(last) { return true }
            return lengths == [4, 6, 5] || lengths == [4, 6, 4]
        }

        private static func isWordByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "A")...UInt8(ascii: "Z"):
                true
            default:
                false
            }
        }
    }
}
