import CheckoutKit
import Foundation

/// How a face of the store writes money, numbers and times for a reader's locale and time zone.
/// The storefront's ``PageContext`` and the back office's context both take these, so that an
/// amount or a date reads the same on either side of the counter.
package protocol LocaleFormatting {
    /// The locale amounts, numbers and dates are written for.
    var locale: Locale { get }
    /// The time zone times are written in, and named.
    var timeZone: TimeZone { get }
}

extension LocaleFormatting {
    /// `€50.00` in `en_US`, from CheckoutKit's locale-aware formatting.
    package func money(_ amount: Money) -> String {
        amount.formatted(locale: locale)
    }

    /// An amount taken off, with a real minus sign: `−€5.00`; zero is just `€0.00`.
    package func deduction(_ amount: Money) -> String {
        amount.isZero ? money(amount) : "−" + money(amount)
    }

    /// A whole number as the locale groups it: `10,005` in `en_US`.
    package func number(_ value: Int) -> String {
        value.formatted(.number.locale(locale))
    }

    /// `March 12, 2025 at 2:05 PM GMT` in `en_US`, in the context's time zone, which it names: the
    /// server does not know the reader's, so a bare time would be read as local and be wrong.
    package func dateTime(_ date: Date) -> String {
        date.formatted(
            Date.FormatStyle(date: .long, time: .shortened, locale: locale, timeZone: timeZone)
                .timeZone(.specificName(.short)))
    }

    /// `March 12, 2025`.
    package func date(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .long, time: .omitted, locale: locale, timeZone: timeZone))
    }

    /// The machine-readable form for a `<time datetime>` attribute: `2025-03-12T14:05:00Z`.
    package func isoDateTime(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
