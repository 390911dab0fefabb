import Foundation
import HTML
import StoreViews

/// How the back office writes money, numbers and times for the context's locale and time zone —
/// as the storefront does (``LocaleFormatting``), and the denser forms its tables need — and reads
/// the date and date-time fields its forms send.
extension AdminContext: LocaleFormatting {
    /// A change of stock with its sign always shown, a real minus sign for a decrease: `+12`, `−2`.
    func signed(_ value: Int) -> String {
        value > 0 ? "+" + number(value) : value < 0 ? "−" + number(-value) : number(0)
    }

    /// `Mar 12, 2025, 2:05 PM` in the context's time zone: for the dense rows of a table, whose
    /// caption names the zone.
    func shortDateTime(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, locale: locale, timeZone: timeZone))
    }

    /// The context's time zone by its identifier, the same all year: `GMT`, `Europe/Berlin`.
    var zoneName: String { timeZone.identifier }

    /// A `<time>` element: the date and time for people, the instant for machines.
    func time(_ date: Date, short: Bool = false) -> Node {
        .time([.datetime(isoDateTime(date))], short ? shortDateTime(date) : dateTime(date))
    }
}

extension AdminContext {
    /// The value of a `datetime-local` field for `date` in the context's time zone:
    /// `2025-03-12T14:05`.
    public func dateTimeFieldValue(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0)
    }

    /// The instant a `datetime-local` field's value names in the context's time zone
    /// (`2025-03-12T14:05`, seconds allowed); `nil` for anything else.
    public func date(fromDateTimeField text: String) -> Date? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, let day = dayComponents(parts[0]) else { return nil }
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(clock.count), clock.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), hour < 24, minute < 60
        else { return nil }
        let second = clock.count == 3 ? Int(clock[2]) ?? 60 : 0
        guard second < 60 else { return nil }
        var components = day
        components.hour = hour
        components.minute = minute
        components.second = second
        return exactDate(components)
    }

    /// The first instant of the day a `date` field's value names in the context's time zone
    /// (`2025-03-12`); `nil` for anything else.
    public func startOfDay(fromDateField text: String) -> Date? {
        guard let components = dayComponents(Substring(text.trimmingCharacters(in: .whitespaces))) else {
            return nil
        }
        return exactDate(components)
    }

    /// The value of a `date` field for the day `date` falls on in the context's time zone.
    public func dateFieldValue(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// `2025-03-12` as year, month and day, if it is one.
    private func dayComponents(_ text: Substring) -> DateComponents? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return DateComponents(year: year, month: month, day: day)
    }

    /// The date of `components`, if the calendar has exactly that day (no 31 February).
    private func exactDate(_ components: DateComponents) -> Date? {
        guard let date = calendar.date(from: components) else { return nil }
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        guard back.year == components.year, back.month == components.month, back.day == components.day else {
            return nil
        }
        return date
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
