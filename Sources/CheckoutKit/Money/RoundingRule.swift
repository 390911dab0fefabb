/// How an exact quotient is brought to a whole number of minor units.
///
/// The store uses two rules, each named for where it applies: ``promotion`` for percentage
/// discounts and ``paymentFee`` for payment fees.
public enum RoundingRule: Hashable, Sendable {
    /// Ties move away from zero: 4.495 → 4.50, −4.495 → −4.50.
    case halfAwayFromZero
    /// Ties go to the even neighbour (banker's rounding): 4.485 → 4.48, 4.495 → 4.50.
    case halfToEven

    /// Percentage promotions round half away from zero (docs/BEHAVIOUR.md §4).
    public static let promotion: RoundingRule = .halfAwayFromZero
    /// Payment fees round half to even (docs/BEHAVIOUR.md §5).
    public static let paymentFee: RoundingRule = .halfToEven

    /// `numerator / denominator` rounded to an integer by this rule.
    ///
    /// - Precondition: `denominator > 0` (callers pass a fixed, positive scale).
    func divide(_ numerator: Int64, by denominator: Int64) -> Int64 {
        precondition(denominator > 0, "the scale of a division is positive")
        let quotient = numerator / denominator  // truncates toward zero
        let remainder = numerator % denominator  // same sign as the numerator
        if remainder == 0 { return quotient }
        let awayFromZero: Int64 = numerator < 0 ? -1 : 1
        let twiceRemainder = remainder.magnitude * 2
        if twiceRemainder < denominator.magnitude { return quotient }
        if twiceRemainder > denominator.magnitude { return quotient + awayFromZero }
        switch self {
        case .halfAwayFromZero: return quotient + awayFromZero
        case .halfToEven: return quotient % 2 == 0 ? quotient : quotient + awayFromZero
        }
    }
}
