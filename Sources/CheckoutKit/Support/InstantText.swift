import Foundation

/// Instants as the store writes them: ISO 8601 in UTC with milliseconds, `2026-12-02T12:08:30.123Z`.
public enum InstantText {
    /// To the nearest millisecond. The store keeps instants in whole milliseconds, which a `Date`
    /// holds only to the nearest `Double` (1.859 s may be 1.858999…), and Foundation's format
    /// style would cut such an instant down to the millisecond before. Computed directly (the
    /// civil date from the day count) for 1970 to 9999, by the format style outside.
    public static func iso8601(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded()
        guard milliseconds >= 0, milliseconds < Double(latestMillisecond) else { return date.formatted(style) }
        var text: [UInt8] = []
        text.reserveCapacity(24)
        append(millisecondsSince1970: Int64(milliseconds), to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// One past the last millisecond of 9999-12-31, the last instant written directly.
    public static let latestMillisecond: Int64 = 253_402_300_800_000

    /// The length of an instant as written: `2026-12-02T12:08:30.123Z`.
    public static let length = 24

    /// Appends the instant `milliseconds` after 1970-01-01T00:00:00Z as UTF-8 (see
    /// ``write(millisecondsSince1970:to:)``).
    public static func append(millisecondsSince1970 milliseconds: Int64, to text: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
            write(millisecondsSince1970: milliseconds, to: buffer)
            text.append(contentsOf: UnsafeBufferPointer(buffer))
        }
    }

    /// Writes the instant `milliseconds` after 1970-01-01T00:00:00Z as UTF-8 into the first
    /// ``length`` bytes of `buffer`, without allocating or taking a lock (the server's log writes
    /// one for every request). `milliseconds` must lie in `0..<latestMillisecond`, years 1970 to
    /// 9999; outside, it is clamped into that range. `buffer` must hold ``length`` bytes.
    public static func write(millisecondsSince1970 milliseconds: Int64, to buffer: UnsafeMutableBufferPointer<UInt8>) {
        precondition(buffer.count >= length, "an instant is written into 24 bytes")
        let total = min(max(0, milliseconds), latestMillisecond - 1)
        let days = total / 86_400_000
        let inDay = total % 86_400_000
        // Days since 1970-01-01 to year, month, day (Howard Hinnant's civil_from_days).
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)

        // Each digit by a division by a constant (a multiplication).
        func put(_ value: Int64, digits: Int, at offset: Int) {
            var rest = value
            for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
        }
        put(year, digits: 4, at: 0)
        buffer[4] = UInt8(ascii: "-")
        put(month, digits: 2, at: 5)
        buffer[7] = UInt8(ascii: "-")
        put(day, digits: 2, at: 8)
        buffer[10] = UInt8(ascii: "T")
        put(inDay / 3_600_000, digits: 2, at: 11)
        buffer[13] = UInt8(ascii: ":")
        put(inDay / 60_000 % 60, digits: 2, at: 14)
        buffer[16] = UInt8(ascii: ":")
        put(inDay / 1_000 % 60, digits: 2, at: 17)
        buffer[19] = UInt8(ascii: ".")
        put(inDay % 1_000, digits: 3, at: 20)
        buffer[23] = UInt8(ascii: "Z")
    }

    /// The format style for instants outside 1970 to 9999.
    public static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
