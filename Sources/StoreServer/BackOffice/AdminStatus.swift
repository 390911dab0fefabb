import CheckoutKit
import Foundation
import StoreViews

/// What the last back-office action did, carried by a short-lived cookie from a form's redirect to
/// the page it leads to (POST-redirect-GET), which announces it once.
///
/// The cookie holds a code and plain numbers — never a sentence or anything typed: the page
/// writes the sentence.
enum AdminStatus: Hashable, Sendable {
    case loggedOut
    /// The staff session ended (idle or too old): sign in again.
    case sessionEnded
    case productCreated
    case productSaved
    /// A stock adjustment: the change, and the stock after it.
    case stockAdjusted(change: Int, stock: Int)
    case imageUploaded
    /// A catalog import applied: products added and changed.
    case imported(added: Int, changed: Int)
    case promotionCreated
    case promotionDisabled
    /// An order moved to a fulfilment status.
    case orderMoved(FulfilmentStatus)
    /// A refund succeeded, giving this back.
    case refunded(Money)
    /// An order was cancelled, giving this back.
    case orderCancelled(Money)
    /// The payment provider refused a refund; for a cancellation, the order is not cancelled.
    case refundRefused(cancellation: Bool)
    /// The provider's answer to a refund was lost: it is pending, settled by asking the provider.
    case refundPending
    /// The same refund form is still being sent by an earlier press.
    case refundInProgress
    /// Cancel order waited: another refund of the order is still being confirmed.
    case cancelWaitsForRefund
    case staffAdded
    case staffRemoved

    var cookieValue: String {
        switch self {
        case .loggedOut: "logged-out"
        case .sessionEnded: "session-ended"
        case .productCreated: "product-created"
        case .productSaved: "product-saved"
        case .stockAdjusted(let change, let stock): "stock:\(change):\(stock)"
        case .imageUploaded: "image-uploaded"
        case .imported(let added, let changed): "imported:\(added):\(changed)"
        case .promotionCreated: "promotion-created"
        case .promotionDisabled: "promotion-disabled"
        case .orderMoved(let status): "order:" + status.rawValue
        case .refunded(let amount): "refunded:\(amount.minorUnits):\(amount.currency.code)"
        case .orderCancelled(let amount): "cancelled:\(amount.minorUnits):\(amount.currency.code)"
        case .refundRefused(let cancellation): cancellation ? "cancel-refused" : "refund-refused"
        case .refundPending: "refund-pending"
        case .refundInProgress: "refund-in-progress"
        case .cancelWaitsForRefund: "cancel-waits"
        case .staffAdded: "staff-added"
        case .staffRemoved: "staff-removed"
        }
    }

    /// The status a cookie value stands for; `nil` for anything else (a stale or forged value is
    /// ignored, never echoed).
    init?(cookieValue: String) {
        guard cookieValue.utf8.count <= 64 else { return nil }
        let parts = cookieValue.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        func numbers() -> (Int, Int)? {
            guard parts.count == 3, let first = Int(parts[1]), let second = Int(parts[2]) else { return nil }
            return (first, second)
        }
        func amount() -> Money? {
            guard parts.count == 3, let minor = Int64(parts[1]), minor >= 0, let currency = Currency(code: parts[2])
            else { return nil }
            return Money(minorUnits: minor, currency: currency)
        }
        switch parts[0] {
        case "logged-out": self = .loggedOut
        case "session-ended": self = .sessionEnded
        case "product-created": self = .productCreated
        case "product-saved": self = .productSaved
        case "stock":
            guard let (change, stock) = numbers() else { return nil }
            self = .stockAdjusted(change: change, stock: stock)
        case "image-uploaded": self = .imageUploaded
        case "imported":
            guard let (added, changed) = numbers() else { return nil }
            self = .imported(added: added, changed: changed)
        case "promotion-created": self = .promotionCreated
        case "promotion-disabled": self = .promotionDisabled
        case "order":
            guard parts.count == 2, let status = FulfilmentStatus(rawValue: parts[1]) else { return nil }
            self = .orderMoved(status)
        case "refunded":
            guard let amount = amount() else { return nil }
            self = .refunded(amount)
        case "cancelled":
            guard let amount = amount() else { return nil }
            self = .orderCancelled(amount)
        case "refund-refused": self = .refundRefused(cancellation: false)
        case "cancel-refused": self = .refundRefused(cancellation: true)
        case "refund-pending": self = .refundPending
        case "refund-in-progress": self = .refundInProgress
        case "cancel-waits": self = .cancelWaitsForRefund
        case "staff-added": self = .staffAdded
        case "staff-removed": self = .staffRemoved
        default: return nil
        }
    }

    /// The sentence the page announces, amounts written for `locale`.
    func message(locale: Locale) -> StatusMessage {
        switch self {
        case .loggedOut: StatusMessage("You are logged out.", kind: .info)
        case .sessionEnded: StatusMessage("Your session ended. Log in again to carry on.", kind: .info)
        case .productCreated: StatusMessage("Product added. It has no stock yet: adjust its stock below.")
        case .productSaved: StatusMessage("Product saved.")
        case .stockAdjusted(let change, let stock):
            StatusMessage("Stock adjusted by \(change > 0 ? "+" : "−")\(change.magnitude): \(stock) in stock now.")
        case .imageUploaded: StatusMessage("Image uploaded.")
        case .imported(let added, let changed):
            StatusMessage("Import applied: \(added) added, \(changed) changed.")
        case .promotionCreated: StatusMessage("Promotion saved.")
        case .promotionDisabled: StatusMessage("Promotion disabled. Baskets holding it no longer get its discount.")
        case .orderMoved(let status): StatusMessage("Order marked \(status.label.lowercased()).")
        case .refunded(let amount): StatusMessage("Refunded \(amount.formatted(locale: locale)).")
        case .orderCancelled(let amount):
            StatusMessage(
                amount.isZero
                    ? "Order cancelled. Its items are back in stock."
                    : "Order cancelled. \(amount.formatted(locale: locale)) refunded; its items are back in stock.")
        case .refundRefused(cancellation: false): StatusMessage(RefundWording.refused, kind: .error)
        case .refundRefused(cancellation: true):
            StatusMessage(
                "The payment provider refused the refund, so the order is not cancelled. Nothing was given back or "
                    + "restocked.", kind: .error)
        case .refundPending:
            StatusMessage(
                RefundWording.unconfirmed + " It is pending and will be settled with the provider; sending the "
                    + "same form again is safe — " + RefundWording.neverTwice, kind: .info)
        case .refundInProgress:
            StatusMessage("This refund is still being made. Look at the order again in a moment.", kind: .info)
        case .cancelWaitsForRefund:
            StatusMessage(RefundWording.refundBeforeCancel + " The order is not cancelled yet.", kind: .info)
        case .staffAdded: StatusMessage("Member of staff added. They can log in now.")
        case .staffRemoved: StatusMessage("Member of staff removed. Their sessions have ended.")
        }
    }
}
