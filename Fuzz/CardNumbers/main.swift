// libFuzzer target: the card-number detector, which reads text in one pass, agrees with a slow
// reference written straight from its definition (docs/RELIABILITY.md, "Card numbers"): try every
// stretch of the text and ask whether it is a card number written whole.
import CheckoutKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCardNumbers(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // The reference tries every stretch; card numbers are short, so 96 bytes find every case.
    let bytes = Array(UnsafeBufferPointer(start: data, count: min(size, 96)))
    let text = String(decoding: bytes, as: UTF8.self)
    let fast = CardNumberDetector.containsCardNumber(text)
    let slow = Reference.containsCardNumber(Array(text.utf8))
    check(fast == slow, "the detector says \(fast), the reference \(slow), for \(Array(text.utf8))")
    return 0
}

/// Card numbers by their definition, with no scanner state:
/// - 13–19 digits with a card's leading digit that pass the Luhn check (`isCardNumber`);
/// - written as one run of digits with no digit on either side (a number is judged whole), or
/// - as two or more groups of digits, each pair separated by one to three characters that are
///   neither ASCII letters nor digits (a character outside ASCII counts once, whatever its bytes),
///   in a printed layout (fours with a last group of 1–4, or 4-6-5, or 4-6-4), whose first and last
///   groups are whole and not the end of a word: no letter or digit just before or just after.
enum Reference {
    static func containsCardNumber(_ text: [UInt8]) -> Bool {
        // Every stretch that starts a group; at most 19 digits and 18 separators of three
        // characters of up to four bytes long.
        for start in text.indices where isDigit(text[start]) && (start == 0 || !isDigit(text[start - 1])) {
            for end in (start + 1)...min(text.count, start + 19 + 18 * 12) {
                guard !isLetter(text[end - 1]) else { break }
                if isCard(text, start, end) { return true }
            }
        }
        return false
    }

    private static func isCard(_ text: [UInt8], _ start: Int, _ end: Int) -> Bool {
        guard isDigit(text[start]), isDigit(text[end - 1]) else { return false }
        if start > 0 && isDigit(text[start - 1]) { return false }
        if end < text.count && isDigit(text[end]) { return false }
        var groups: [[UInt8]] = [[]]
        var separatorCharacters = 0
        for index in start..<end {
            let byte = text[index]
            if isDigit(byte) {
                if separatorCharacters > 0 {
                    // Between two groups: one to three characters.
                    guard separatorCharacters <= 3 else { return false }
                    groups.append([])
                    separatorCharacters = 0
                }
                groups[groups.count - 1].append(byte - UInt8(ascii: "0"))
            } else if isLetter(byte) {
                return false
            } else if byte & 0xC0 != 0x80 {
                separatorCharacters += 1
            }
        }
        let digits = groups.flatMap { $0 }
        guard isCardNumber(digits) else { return false }
        if groups.count == 1 { return true }
        if start > 0 && isWordByte(text[start - 1]) { return false }
        if end < text.count && isWordByte(text[end]) { return false }
        let lengths = groups.map(\.count)
        let fours = lengths.dropLast().allSatisfy { $0 == 4 } && (1...4).contains(lengths[lengths.count - 1])
        return fours || lengths == [4, 6, 5] || lengths == [4, 6, 4]
    }

    /// A card's length for its leading digit (1: UATP's 15; 2: 16–19; 3–6: 13–19) and Luhn.
    private static func isCardNumber(_ digits: [UInt8]) -> Bool {
        let lengths: ClosedRange<Int>
        switch digits.first {
        case 1: lengths = 15...15
        case 2: lengths = 16...19
        case 3, 4, 5, 6: lengths = 13...19
        default: return false
        }
        guard lengths.contains(digits.count) else { return false }
        // Luhn: from the right, every second digit doubled (and 9 taken off above 9).
        var sum = 0
        for (position, digit) in digits.reversed().enumerated() {
            let value = Int(digit) * (position % 2 == 1 ? 2 : 1)
            sum += value > 9 ? value - 9 : value
        }
        return sum % 10 == 0
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || isLetter(byte)
    }
}
