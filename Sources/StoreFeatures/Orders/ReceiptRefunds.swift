import CheckoutKit
import Foundation
import StoreAPI

/// Where an order's payment stands and the money that went back, as every face of the app words
/// it (docs/BEHAVIOUR.md §14): the status, and each refund with its amount, units and date.
public struct ReceiptRefunds: Hashable, Sendable {
    /// One refund.
    public struct Entry: Hashable, Sendable, Identifiable {
        /// What it gave back for: `Running cap × 1`, `Shipping`, `Payment fee`, `Goodwill refund`.
        public struct Part: Hashable, Sendable {
            public let label: String
            public let amount: Money
        }

        public let id: String
        /// Still on its way: the provider has not said yet.
        public let isPending: Bool
        public let isCancellation: Bool
        public let amount: Money
        /// When the money went back; for a pending refund, when it was asked for.
        public let date: Date?
        public let parts: [Part]
        /// `Refunded €19.71 on March 14, 2025 at 3:05 PM GMT`, or `Refund of €8.05 pending since …`.
        public let headline: String
    }

    /// `paid`, `partially_refunded` or `refunded`; `nil` for a word this app does not know.
    public let status: PaymentStatus?
    /// `Paid`, `Partially refunded`, `Refunded` (or the server's word, when unknown).
    public let statusLabel: String
    /// Succeeded and pending refunds, oldest first (the server never sends a failed one; were it
    /// to, it is left out here too).
    public let entries: [Entry]
    /// What the succeeded refunds gave back in all; `nil` when their amounts cannot be added up.
    public let refunded: Money?

    /// `order`'s payment and refunds, with amounts written for `locale` and times in `timeZone`.
    public init(_ order: OrderBody, locale: Locale, timeZone: TimeZone) {
        let status = PaymentStatus(rawValue: order.paymentStatus)
        self.status = status
        statusLabel = status?.label ?? order.paymentStatus
        let shown = order.refunds.filter {
            [RefundState.succeeded.rawValue, RefundState.pending.rawValue].contains($0.status)
        }
        entries = shown.map { Self.entry($0, locale: locale, timeZone: timeZone) }
        refunded = try? Money.sum(
            shown.filter { $0.status == RefundState.succeeded.rawValue }.map(\.amount), in: order.total.currency)
    }

    /// Whether anything went back or is on its way.
    public var isEmpty: Bool { entries.isEmpty }

    private static func entry(_ refund: RefundBody, locale: Locale, timeZone: TimeZone) -> Entry {
        let isPending = refund.status == RefundState.pending.rawValue
        let date = (isPending ? nil : refund.settledAt.flatMap(StoreJSON.date)) ?? StoreJSON.date(refund.createdAt)
        let amount = refund.amount.formatted(locale: locale)
        let when = date.map {
            $0.formatted(
                Date.FormatStyle(date: .long, time: .shortened, locale: locale, timeZone: timeZone)
                    .timeZone(.specificName(.short)))
        }
        let headline =
            switch (isPending, when) {
            case (true, let when?): "Refund of \(amount) pending since \(when)"
            case (true, nil): "Refund of \(amount) pending"
            case (false, let when?): "Refunded \(amount) on \(when)"
            case (false, nil): "Refunded \(amount)"
            }
        var parts = refund.lines.map { Entry.Part(label: "\($0.title) × \($0.quantity)", amount: $0.amount) }
        if !refund.shipping.isZero { parts.append(Entry.Part(label: "Shipping", amount: refund.shipping)) }
        if !refund.fee.isZero { parts.append(Entry.Part(label: "Payment fee", amount: refund.fee)) }
        if parts.isEmpty {
            parts.append(
                Entry.Part(
                    label: refund.kind == RefundKind.goodwill.rawValue ? "Goodwill refund" : "Refund",
                    amount: refund.amount))
        }
        return Entry(
            id: refund.id, isPending: isPending, isCancellation: refund.kind == RefundKind.cancellation.rawValue,
            amount: refund.amount, date: date, parts: parts, headline: headline)
    }
}
