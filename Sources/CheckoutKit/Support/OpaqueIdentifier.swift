#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes identifiers: a prefix and 26 base-32 characters, either from 128 random bits (revealing
/// nothing) or from the instant and 80 random bits (sorting by creation).
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
        var generator = SystemRandomWords()
        return make(prefix: prefix, using: &generator)
    }

    /// `prefix` followed by 26 characters that sort by creation: the first 10 spell
    /// `milliseconds` (48 bits, the instant since 1970), the last 16 carry 80 bits drawn from
    /// `generator` — the layout of a ULID, in the same alphabet and length as ``make(prefix:)``.
    ///
    /// What a database indexes by such an identifier grows at its end, so the rows of one batch of
    /// commits share their index pages instead of each dirtying a page of its own at random. The
    /// identifier tells the instant it was made (as the record it names does) and stays
    /// unguessable; none of the store's identifiers is a credential.
    public static func makeOrdered(
        prefix: String, milliseconds: UInt64, using generator: inout some RandomNumberGenerator
    ) -> String {
        var characters = [UInt8](repeating: 0, count: 26)
        var time = milliseconds & 0xFFFF_FFFF_FFFF
        for index in (0..<10).reversed() {
            characters[index] = alphabet[Int(time & 31)]
            time >>= 5
        }
        var random = generator.next() as UInt64
        for index in 10..<26 {
            if index == 22 { random = generator.next() as UInt64 }  // 12 × 5 bits used: 4 more from a fresh word
            characters[index] = alphabet[Int(random & 31)]
            random >>= 5
        }
        return prefix + String(decoding: characters, as: UTF8.self)
    }

    /// A time-ordered identifier (``makeOrdered(prefix:milliseconds:using:)``) for now, from the
    /// system's cryptographic random source.
    public static func makeOrdered(prefix: String) -> String {
        var generator = SystemRandomWords()
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let milliseconds = UInt64(max(0, now.tv_sec)) * 1_000 + UInt64(max(0, now.tv_nsec)) / 1_000_000
        return makeOrdered(prefix: prefix, milliseconds: milliseconds, using: &generator)
    }

    /// Whether `text` is `prefix` followed by 26 characters of the alphabet: what ``make(prefix:)``
    /// returns. Checked before an identifier a client sent goes anywhere else.
    public static func isWellFormed(_ text: String, prefix: String) -> Bool {
        guard text.hasPrefix(prefix) else { return false }
        let rest = text.utf8.dropFirst(prefix.utf8.count)
        return rest.count == 26 && rest.allSatisfy { alphabet.contains($0) }
    }
}

/// The system's cryptographic random source, two words drawn in one call: each identifier takes
/// two, and `SystemRandomNumberGenerator` asks the kernel once for every word (eight `getrandom`
/// calls a checkout for its four identifiers). `arc4random_buf` is glibc's and Darwin's
/// interface to the same source (`getrandom` on Linux); it does not fail.
struct SystemRandomWords: RandomNumberGenerator {
    private var words: (UInt64, UInt64) = (0, 0)
    private var taken = 0

    init() {
        withUnsafeMutableBytes(of: &words) { bytes in
            if let base = bytes.baseAddress { arc4random_buf(base, bytes.count) }
        }
    }

    mutating func next() -> UInt64 {
        defer { taken += 1 }
        switch taken {
        case 0: return words.0
        case 1: return words.1
        default:
            var system = SystemRandomNumberGenerator()
            return system.next()
        }
    }
}
