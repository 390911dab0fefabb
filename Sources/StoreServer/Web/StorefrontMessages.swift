import CheckoutKit
import StoreServices
import StoreViews

/// The storefront's words for what the last action did, shown once by the page a form leads to.
extension Storefront {
    /// Beside the promo code field, for a code that could not be applied.
    static let promotionCodeRefused = "That code does not exist or can no longer be used."

    /// The sentence the page's status says for `status`.
    func message(for status: WebStatus) -> StatusMessage {
        func title(_ id: ProductID) -> String {
            catalog.read { $0.product(id)?.title } ?? "The product"
        }
        switch status {
        case .added(let id): return StatusMessage("Added \(title(id)) to your basket.")
        case .updated(let id): return StatusMessage("Updated the quantity of \(title(id)).")
        case .removed(let id): return StatusMessage("Removed \(title(id)) from your basket.")
        case .notEnoughStock(let id, let available):
            return StatusMessage(
                available == 0
                    ? "\(title(id)) is sold out."
                    : "Only \(available) of \(title(id)) left: the basket was not changed.",
                kind: .error)
        case .promotionApplied: return StatusMessage("Promo code applied.")
        case .promotionRemoved: return StatusMessage("Promo code removed.")
        case .promotionInvalid: return StatusMessage("That promo code cannot be used.", kind: .error)
        case .loggedIn(let capped):
            guard !capped.isEmpty else { return StatusMessage("You are logged in. Your basket is kept.") }
            return StatusMessage(
                "You are logged in. Your basket is kept; "
                    + capped.map(title).joined(separator: ", ")
                    + " went over 10, so the basket holds the most it can: 10.",
                kind: .info)
        case .loggedOut: return StatusMessage("You are logged out.")
        case .loginFailed: return StatusMessage(LoginError.invalidCredentials.message, kind: .error)
        case .loginThrottled: return StatusMessage(LoginError.throttled(retryAfter: 0).message, kind: .error)
        case .tooManyNewShoppers: return StatusMessage("Too many new visits at once. Try again soon.", kind: .error)
        case .declined(let reason): return StatusMessage(reason.explanation + " Your basket is kept.", kind: .error)
        case .unavailable:
            return StatusMessage(
                "The payment could not be confirmed. Paying again is safe: you will be charged once.", kind: .error)
        case .priceChanged: return StatusMessage("The total has changed. Please check it and pay again.", kind: .error)
        case .soldOut(let ids):
            return StatusMessage(
                "Not enough stock for: " + ids.map(title).joined(separator: ", ") + ". Your basket is kept.",
                kind: .error)
        case .paymentInProgress:
            return StatusMessage(
                "A payment for this basket is still being confirmed. Try again in a moment.", kind: .error)
        }
    }
}
