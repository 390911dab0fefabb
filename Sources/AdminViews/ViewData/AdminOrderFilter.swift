import CheckoutKit
import Foundation

/// The order list's filter (`/admin/orders`): by payment status, fulfilment status and the days
/// placed, and a search for an order id or a customer's email. Its state lives in the query string,
/// so a link or the back button shows the same list.
public struct AdminOrderFilter: Hashable, Sendable {
    /// The longest search text kept.
    public static let maximumSearchLength = 200

    /// Only orders with this payment status; `nil` for any.
    public var payment: PaymentStatus?
    /// Only orders with this fulfilment status; `nil` for any.
    public var fulfilment: FulfilmentStatus?
    /// The first day, `2025-03-12`, in the context's time zone; empty for no bound.
    public var from: String
    /// The last day (included), `2025-03-31`; empty for no bound.
    public var to: String
    /// An order id or (part of) a customer's email; empty for none.
    public var search: String

    public init(
        payment: PaymentStatus? = nil, fulfilment: FulfilmentStatus? = nil, from: String = "", to: String = "",
        search: String = ""
    ) {
        self.payment = payment
        self.fulfilment = fulfilment
        self.from = from
        self.to = to
        self.search = search
    }

    /// The filter a query string asks for. Anything unknown or malformed is left out rather than
    /// refused: `payment=lost` is any payment status, `from=yesterday` no bound. The search is
    /// trimmed and cut to ``maximumSearchLength`` characters.
    public init(parameters: [String: String]) {
        func day(_ name: String) -> String {
            let text = (parameters[name] ?? "").trimmingCharacters(in: .whitespaces)
            return Self.isDay(text) ? text : ""
        }
        self.init(
            payment: parameters[AdminFormFields.payment].flatMap(PaymentStatus.init(rawValue:)),
            fulfilment: parameters[AdminFormFields.fulfilment].flatMap(FulfilmentStatus.init(rawValue:)),
            from: day(AdminFormFields.from), to: day(AdminFormFields.to),
            search: String(
                (parameters[AdminFormFields.search] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                    .prefix(Self.maximumSearchLength)))
    }

    /// Whether nothing is filtered.
    public var isEmpty: Bool { self == AdminOrderFilter() }

    /// The instants the days cover in `context`'s time zone: from the start of ``from`` to the start
    /// of the day after ``to`` (excluded); `nil` for a missing bound.
    public func interval(in context: AdminContext) -> (start: Date?, end: Date?) {
        let start = context.startOfDay(fromDateField: from)
        let end = context.startOfDay(fromDateField: to).flatMap { lastDay in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = context.timeZone
            return calendar.date(byAdding: .day, value: 1, to: lastDay)
        }
        return (start, end)
    }

    /// The query parameters of this filter, the empty ones included (``AdminPaths`` leaves them out).
    var parameters: [(String, String)] {
        [
            (AdminFormFields.payment, payment?.rawValue ?? ""),
            (AdminFormFields.fulfilment, fulfilment?.rawValue ?? ""),
            (AdminFormFields.from, from),
            (AdminFormFields.to, to),
            (AdminFormFields.search, search),
        ]
    }

    /// `2025-03-12`: four, two and two digits.
    private static func isDay(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [4, 2, 2] && parts.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }
}
