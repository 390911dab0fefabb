import CheckoutKit
import Foundation

/// What the last action did, carried by a short-lived cookie from a form's redirect to the page
/// it leads to (POST-redirect-GET), which shows it once in its `aria-live` status.
///
/// The cookie holds a code and plain values (a product id, a decline reason, the code the shopper
/// typed) — never a sentence: the page writes the sentence, escaped like everything else.
enum WebStatus: Hashable, Sendable {
    case added(ProductID)
    case updated(ProductID)
    case removed(ProductID)
    /// Not as many in stock as asked for.
    case notEnoughStock(ProductID, available: Int)
    case promotionApplied
    case promotionRemoved
    /// The code typed is malformed, unknown, expired or used up.
    case promotionInvalid(typed: String)
    /// Logged in; the products whose quantities were capped when the baskets were merged.
    case loggedIn(capped: [ProductID])
    case loggedOut
    case loginFailed
    case loginThrottled
    case tooManyNewShoppers
    case declined(DeclineReason)
    case unavailable
    /// The total changed since the page was shown: the one the shopper saw, as `45.00`.
    case priceChanged(previous: String)
    case soldOut([ProductID])
    case paymentInProgress

    /// The longest text a status keeps from the shopper's input.
    static let maximumTypedLength = 64

    var cookieValue: String {
        switch self {
        case .added(let id): "added:\(id.rawValue)"
        case .updated(let id): "updated:\(id.rawValue)"
        case .removed(let id): "removed:\(id.rawValue)"
        case .notEnoughStock(let id, let available): "stock:\(id.rawValue):\(available)"
        case .promotionApplied: "promotion-applied"
        case .promotionRemoved: "promotion-removed"
        case .promotionInvalid(let typed): "promotion-invalid:" + String(typed.prefix(Self.maximumTypedLength))
        case .loggedIn(let capped): "logged-in:" + capped.map { String($0.rawValue) }.joined(separator: ",")
        case .loggedOut: "logged-out"
        case .loginFailed: "login-failed"
        case .loginThrottled: "login-throttled"
        case .tooManyNewShoppers: "too-many-new-shoppers"
        case .declined(let reason): "declined:" + reason.rawValue
        case .unavailable: "unavailable"
        case .priceChanged(let previous): "price-changed:" + previous
        case .soldOut(let ids): "sold-out:" + ids.map { String($0.rawValue) }.joined(separator: ",")
        case .paymentInProgress: "payment-in-progress"
        }
    }

    /// The status a cookie value stands for; `nil` for anything else (a stale or forged value is
    /// ignored, never echoed).
    init?(cookieValue: String) {
        guard cookieValue.utf8.count <= 200 else { return nil }
        let parts = cookieValue.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let code = parts.first.map(String.init) ?? ""
        let value = parts.count > 1 ? String(parts[1]) : ""
        func product(_ text: Substring) -> ProductID? { ProductID(parsing: text) }
        switch code {
        case "added": guard let id = product(value[...]) else { return nil }; self = .added(id)
        case "updated": guard let id = product(value[...]) else { return nil }; self = .updated(id)
        case "removed": guard let id = product(value[...]) else { return nil }; self = .removed(id)
        case "stock":
            let fields = value.split(separator: ":")
            guard fields.count == 2, let id = product(fields[0]), let available = Int(fields[1]) else { return nil }
            self = .notEnoughStock(id, available: available)
        case "promotion-applied": self = .promotionApplied
        case "promotion-removed": self = .promotionRemoved
        case "promotion-invalid":
            // What the shopper typed is shown again: never a card number, even in a forged cookie.
            let typed = String(value.prefix(Self.maximumTypedLength))
            guard !CardNumberDetector.containsCardNumber(typed) else { return nil }
            self = .promotionInvalid(typed: typed)
        case "logged-in": self = .loggedIn(capped: value.split(separator: ",").compactMap(product))
        case "logged-out": self = .loggedOut
        case "login-failed": self = .loginFailed
        case "login-throttled": self = .loginThrottled
        case "too-many-new-shoppers": self = .tooManyNewShoppers
        case "declined":
            guard !value.isEmpty, value.utf8.count <= 40,
                value.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || ($0 >= 0x61 && $0 <= 0x7A) })
            else { return nil }
            self = .declined(DeclineReason(rawValue: value))
        case "unavailable": self = .unavailable
        case "price-changed":
            guard value.utf8.count <= 20 else { return nil }
            self = .priceChanged(previous: value)
        case "sold-out":
            let ids = value.split(separator: ",").compactMap(product)
            guard !ids.isEmpty else { return nil }
            self = .soldOut(ids)
        case "payment-in-progress": self = .paymentInProgress
        default: return nil
        }
    }
}
