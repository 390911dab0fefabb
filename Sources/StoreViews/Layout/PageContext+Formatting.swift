import CheckoutKit
import Foundation

/// How the pages write money, times and names for the request's locale.
extension PageContext {
    /// `€50.00` in `en_US`, from CheckoutKit's locale-aware formatting.
    func money(_ amount: Money) -> String {
        amount.formatted(locale: locale)
    }

    /// An amount taken off, with a real minus sign: `−€5.00`; zero is just `€0.00`.
    func deduction(_ amount: Money) -> String {
        amount.isZero ? money(amount) : "−" + money(amount)
    }

    /// A whole number as the locale groups it: `10,005` in `en_US`.
    func number(_ value: Int) -> String {
        value.formatted(.number.locale(locale))
    }

    /// `March 12, 2025 at 2:05 PM GMT` in `en_US`, in the context's time zone, which it names: the
    /// server does not know the shopper's, so a bare time would be read as local and be wrong.
    func dateTime(_ date: Date) -> String {
        date.formatted(
            Date.FormatStyle(date: .long, time: .shortened, locale: locale, timeZone: timeZone)
                .timeZone(.specificName(.short)))
    }

    /// `March 12, 2025`.
    func date(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .long, time: .omitted, locale: locale, timeZone: timeZone))
    }

    /// The machine-readable form for a `<time datetime>` attribute: `2025-03-12T14:05:00Z`.
    func isoDateTime(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// A lower-case name from the catalog or the provider, for people: `apparel` → `Apparel`,
    /// `visa` → `Visa`.
    func displayName(_ name: String) -> String {
        name.prefix(1).uppercased(with: locale) + name.dropFirst()
    }
}
