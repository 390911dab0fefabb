import Foundation

/// A promotion code's rules: what it takes off, from which subtotal, when, and how often.
public struct Promotion: Hashable, Sendable {
    /// What a promotion takes off the items.
    public enum Kind: Hashable, Sendable {
        /// A whole percentage (1–100) of the subtotal, rounded by ``RoundingRule/promotion``.
        case percentOff(Rate)
        /// A fixed amount, never more than the subtotal.
        case amountOff(Money)
    }

    /// Whether a promotion can be used at a given moment.
    public enum Availability: Hashable, Sendable {
        case available
        case notStarted
        case expired
        case usedUp
        /// Turned off by a member of staff (docs/BEHAVIOUR.md §13.9): for good, whatever its window.
        case disabled
    }

    public let code: PromotionCode
    public var kind: Kind
    /// The subtotal from which the promotion gives a discount (may be zero).
    public var minimumSubtotal: Money
    /// The first instant the code works, if it has one.
    public var startsAt: Date?
    /// The first instant the code no longer works, if it has one.
    public var endsAt: Date?
    /// How many orders in total may use the code, if limited.
    public var usageLimit: Int?
    /// How many paid orders have used the code.
    public var timesUsed: Int
    /// When a member of staff disabled the code, if one did.
    public var disabledAt: Date?

    public init(
        code: PromotionCode, kind: Kind, minimumSubtotal: Money, startsAt: Date? = nil, endsAt: Date? = nil,
        usageLimit: Int? = nil, timesUsed: Int = 0, disabledAt: Date? = nil
    ) {
        self.code = code
        self.kind = kind
        self.minimumSubtotal = minimumSubtotal
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.usageLimit = usageLimit
        self.timesUsed = timesUsed
        self.disabledAt = disabledAt
    }

    /// Whether the code can be used at `now`: never once disabled; otherwise the window is
    /// `startsAt ..< endsAt`, and a limited code is used up once `timesUsed` reaches `usageLimit`.
    public func availability(at now: Date) -> Availability {
        if disabledAt != nil { return .disabled }
        if let startsAt, now < startsAt { return .notStarted }
        if let endsAt, now >= endsAt { return .expired }
        if let usageLimit, timesUsed >= usageLimit { return .usedUp }
        return .available
    }

    /// The discount this promotion gives on `subtotal` (docs/BEHAVIOUR.md §4).
    ///
    /// Zero while the subtotal is below the minimum; otherwise percent off rounded half away from
    /// zero, or the fixed amount capped at the subtotal. Never negative, never above the subtotal.
    public func discount(on subtotal: Money) throws(MoneyError) -> Money {
        guard try subtotal >= minimumSubtotal, subtotal.isPositive else { return .zero(subtotal.currency) }
        switch kind {
        case .percentOff(let rate):
            return try Money.min(subtotal.portion(rate, rounding: .promotion), subtotal)
        case .amountOff(let amount):
            return try Money.max(Money.min(amount, subtotal), .zero(subtotal.currency))
        }
    }

    /// The notice shown while the subtotal is below the minimum ("Add €X more to use CODE."), or
    /// `nil` once the promotion applies.
    public func notice(for subtotal: Money) throws(MoneyError) -> PromotionNotice? {
        guard try subtotal < minimumSubtotal else { return nil }
        return PromotionNotice(code: code, amountMissing: try minimumSubtotal - subtotal)
    }
}

/// Tells the shopper how much more to add before their code gives a discount.
public struct PromotionNotice: Hashable, Sendable {
    public let code: PromotionCode
    public let amountMissing: Money

    public init(code: PromotionCode, amountMissing: Money) {
        self.code = code
        self.amountMissing = amountMissing
    }

    /// "Add €50.00 more to use BIG20." with the amount formatted for `locale`.
    public func message(locale: Locale) -> String {
        "Add \(amountMissing.formatted(locale: locale)) more to use \(code.rawValue)."
    }
}
