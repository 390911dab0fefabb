/// Finds text that looks like a payment card number, so the store can refuse it unseen.
///
/// A card number here is 13 to 19 digits passing the Luhn check, written together or in groups
/// separated by single spaces or dashes (`4242 4242 4242 4242`, `4242-4242-4242-4242`). Groups are
/// taken whole: a card number followed by more digit groups is still found, while a long run of
/// digits without separators (an order number, a timestamp) is only judged as a whole.
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

    /// Whether some consecutive groups of a run hold 13–19 digits that pass the Luhn check.
    private static func runContainsCardNumber(_ groups: [[UInt8]]) -> Bool {
        for start in groups.indices {
            var digits: [UInt8] = []
            for end in start..<groups.count {
                digits += groups[end]
                if digits.count > digitCountRange.upperBound { break }
                if digitCountRange.contains(digits.count) && passesLuhn(digits) { return true }
            }
        }
        return false
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
