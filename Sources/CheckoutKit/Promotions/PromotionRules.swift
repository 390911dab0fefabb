import Foundation

/// What a new promotion takes off, as a merchant asks for it, before ``PromotionRules`` has checked it.
public enum PromotionOffer: Hashable, Sendable {
    /// A whole percentage of the subtotal (1–100).
    case percent(Int)
    /// A fixed amount, in the shop's currency, above zero.
    case amount(Money)
}

/// A promotion as a merchant asks for it (docs/BEHAVIOUR.md §13.9): every face that takes one from a
/// person (the back office's form, its JSON API) checks it by the same ``PromotionRules``.
public struct PromotionDraft: Hashable, Sendable {
    /// The code as typed; it is trimmed and upper-cased, as the shop matches codes.
    public var code: String
    public var offer: PromotionOffer
    /// The subtotal from which the code gives a discount; `nil` for none (zero).
    public var minimumSubtotal: Money?
    public var startsAt: Date?
    public var endsAt: Date?
    public var usageLimit: Int?

    public init(
        code: String, offer: PromotionOffer, minimumSubtotal: Money? = nil, startsAt: Date? = nil,
        endsAt: Date? = nil, usageLimit: Int? = nil
    ) {
        self.code = code
        self.offer = offer
        self.minimumSubtotal = minimumSubtotal
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.usageLimit = usageLimit
    }
}

/// A field of a promotion a merchant sets.
public enum PromotionField: String, CaseIterable, Hashable, Sendable {
    case code
    case kind
    /// The percentage or the amount, whichever the kind takes.
    case value
    case minimumSubtotal = "minimum_subtotal"
    case startsAt = "starts_at"
    case endsAt = "ends_at"
    case usageLimit = "usage_limit"
}

/// A value a merchant gave that a promotion cannot have, and why, in one sentence.
public struct PromotionFieldProblem: Error, Hashable, Sendable {
    public let field: PromotionField
    public let message: String

    public init(field: PromotionField, message: String) {
        self.field = field
        self.message = message
    }
}

/// Every problem with a new promotion, field by field: the whole form is answered at once.
public struct PromotionDetailsError: Error, Hashable, Sendable {
    public let problems: [PromotionFieldProblem]

    public init(problems: [PromotionFieldProblem]) {
        self.problems = problems
    }
}

/// The rules a new promotion follows, one function per field, each giving the checked value or the
/// problem. A code follows ``PromotionCode``'s rules, so every code the back office makes is one a
/// shopper can type.
public enum PromotionRules {
    /// The whole percentages a percent-off code may take.
    public static let percentages = 1...100

    /// A code as the shop matches it (trimmed, upper-cased): 1 to 32 of A–Z, 0–9, `-` and `_`, and
    /// nothing that looks like a card number.
    public static func code(_ text: String) -> Result<PromotionCode, PromotionFieldProblem> {
        guard let code = PromotionCode(text) else {
            return .failure(
                problem(.code, "A code has 1 to 32 letters (A–Z), digits, hyphens or underscores, and no spaces."))
        }
        guard !CardNumberDetector.containsCardNumber(code.rawValue) else {
            return .failure(
                problem(.code, "This looks like a card number; the shop never stores card numbers."))
        }
        return .success(code)
    }

    /// What the code takes off: a percentage from 1 to 100, or an amount above zero in `currency`.
    public static func offer(
        _ offer: PromotionOffer, currency: Currency
    ) -> Result<Promotion.Kind, PromotionFieldProblem> {
        switch offer {
        case .percent(let percent):
            guard percentages.contains(percent), let rate = Rate(percent: percent) else {
                return .failure(problem(.value, "A percentage is a whole number from 1 to 100."))
            }
            return .success(.percentOff(rate))
        case .amount(let amount):
            guard amount.currency == currency else {
                return .failure(problem(.value, "An amount off is in \(currency.code)."))
            }
            guard amount.isPositive else { return .failure(problem(.value, "An amount off is above zero.")) }
            return .success(.amountOff(amount))
        }
    }

    /// The minimum subtotal: zero in `currency` when absent, never below zero.
    public static func minimumSubtotal(_ amount: Money?, currency: Currency) -> Result<Money, PromotionFieldProblem> {
        guard let amount else { return .success(.zero(currency)) }
        guard amount.currency == currency else {
            return .failure(problem(.minimumSubtotal, "A minimum subtotal is in \(currency.code)."))
        }
        guard !amount.isNegative else {
            return .failure(problem(.minimumSubtotal, "A minimum subtotal is zero or more."))
        }
        return .success(amount)
    }

    /// The validity window: either end may be open; with both, the end comes after the start.
    public static func window(
        startsAt: Date?, endsAt: Date?
    ) -> Result<(startsAt: Date?, endsAt: Date?), PromotionFieldProblem> {
        if let startsAt, let endsAt, endsAt <= startsAt {
            return .failure(problem(.endsAt, "A promotion ends after it starts."))
        }
        return .success((startsAt, endsAt))
    }

    /// How many orders may use the code: none for no limit, else at least one.
    public static func usageLimit(_ limit: Int?) -> Result<Int?, PromotionFieldProblem> {
        guard let limit else { return .success(nil) }
        guard limit >= 1 else { return .failure(problem(.usageLimit, "A usage limit is at least 1 (or none).")) }
        return .success(limit)
    }

    /// Checks every field at once: the new promotion (unused, not disabled), or every problem found.
    public static func promotion(
        _ draft: PromotionDraft, currency: Currency
    ) -> Result<Promotion, PromotionDetailsError> {
        let code = self.code(draft.code)
        let kind = offer(draft.offer, currency: currency)
        let minimum = minimumSubtotal(draft.minimumSubtotal, currency: currency)
        let window = self.window(startsAt: draft.startsAt, endsAt: draft.endsAt)
        let limit = usageLimit(draft.usageLimit)
        switch (code, kind, minimum, window, limit) {
        case (.success(let code), .success(let kind), .success(let minimum), .success(let window), .success(let limit)):
            return .success(
                Promotion(
                    code: code, kind: kind, minimumSubtotal: minimum, startsAt: window.startsAt,
                    endsAt: window.endsAt, usageLimit: limit))
        default:
            let problems = [code.problem, kind.problem, minimum.problem, window.problem, limit.problem]
            return .failure(PromotionDetailsError(problems: problems.compactMap { $0 }))
        }
    }

    // MARK: As typed in a form

    /// A percentage as typed (`15`).
    public static func percent(_ text: String) -> Result<PromotionOffer, PromotionFieldProblem> {
        guard let percent = wholeNumber(text) else {
            return .failure(problem(.value, "A percentage is a whole number from 1 to 100."))
        }
        return .success(.percent(percent))
    }

    /// An amount as typed in `currency` (`5.00`).
    public static func amount(_ text: String, currency: Currency) -> Result<PromotionOffer, PromotionFieldProblem> {
        guard let amount = try? Money(amount: text.trimmingWhitespace(), currency: currency) else {
            return .failure(
                problem(.value, "An amount is written like \(example(currency)), with a dot for decimals."))
        }
        return .success(.amount(amount))
    }

    /// A minimum subtotal as typed in `currency`; empty for none.
    public static func minimumSubtotal(_ text: String, currency: Currency) -> Result<Money?, PromotionFieldProblem> {
        let text = text.trimmingWhitespace()
        guard !text.isEmpty else { return .success(nil) }
        guard let amount = try? Money(amount: text, currency: currency) else {
            return .failure(
                problem(.minimumSubtotal, "An amount is written like \(example(currency)), with a dot for decimals."))
        }
        return .success(amount)
    }

    /// A usage limit as typed; empty for none.
    public static func usageLimit(_ text: String) -> Result<Int?, PromotionFieldProblem> {
        guard !text.trimmingWhitespace().isEmpty else { return .success(nil) }
        guard let limit = wholeNumber(text) else {
            return .failure(problem(.usageLimit, "A usage limit is a whole number of 1 or more (or empty for none)."))
        }
        return .success(limit)
    }

    /// Decimal digits only (at most 9 of them), as a number.
    private static func wholeNumber(_ text: String) -> Int? {
        let digits = text.trimmingWhitespace()
        guard (1...9).contains(digits.count), digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            return nil
        }
        return Int(digits)
    }

    /// `5.00` in EUR, `500` in JPY.
    private static func example(_ currency: Currency) -> String {
        Money(minorUnits: 5 * currency.minorUnitsPerMajorUnit, currency: currency).amountText
    }

    private static func problem(_ field: PromotionField, _ message: String) -> PromotionFieldProblem {
        PromotionFieldProblem(field: field, message: message)
    }
}

extension Result {
    fileprivate var problem: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
