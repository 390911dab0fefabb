import Foundation

/// A customer's membership: free or Pro, and never a third state.
public enum Tier: String, Hashable, Sendable, CaseIterable {
    case free
    case pro
}

/// What the store last heard about a customer's subscription, cached locally.
public struct SubscriptionFacts: Hashable, Sendable {
    /// When the paid period ends; `nil` when the customer never subscribed.
    public var expiresAt: Date?
    /// Whether the subscription renews itself at `expiresAt`.
    public var willAutoRenew: Bool

    public init(expiresAt: Date?, willAutoRenew: Bool) {
        self.expiresAt = expiresAt
        self.willAutoRenew = willAutoRenew
    }

    /// Someone who never subscribed.
    public static let none = SubscriptionFacts(expiresAt: nil, willAutoRenew: false)

    /// The tier these facts give at `now` (docs/BEHAVIOUR.md §6) — a pure, local decision, no network call.
    ///
    /// 1. No expiration → free. 2. Expiration strictly after now → Pro. 3. Expiration passed (an
    /// expiration equal to now counts as passed) with auto-renew on → Pro: a renewal the store has
    /// not heard of yet is resolved toward the paying customer. 4. Passed, auto-renew off → free.
    public func tier(at now: Date) -> Tier {
        guard let expiresAt else { return .free }
        if expiresAt > now { return .pro }
        return willAutoRenew ? .pro : .free
    }
}
