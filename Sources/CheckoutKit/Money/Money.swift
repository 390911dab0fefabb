/// An exact amount of money in one currency, held as a whole number of minor units.
///
/// `Money(minorUnits: 1020, currency: .eur)` is €10.20. Arithmetic is exact and checked: combining
/// two currencies throws ``MoneyError/currencyMismatch(_:_:)`` and a result out of range throws
/// ``MoneyError/overflow`` — never a crash, never a silent conversion or rounding. Money is
/// deliberately not `Comparable`: ordering two currencies has no answer, so comparisons throw too.
public struct Money: Hashable, Sendable {
    /// The amount in the currency's minor unit (cents for EUR, yen for JPY, fils for KWD).
    public let minorUnits: Int64
    public let currency: Currency

    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// No money in `currency`.
    public static func zero(_ currency: Currency) -> Money {
        Money(minorUnits: 0, currency: currency)
    }

    public var isZero: Bool { minorUnits == 0 }
    public var isPositive: Bool { minorUnits > 0 }
    public var isNegative: Bool { minorUnits < 0 }

    // MARK: Arithmetic

    public static func + (lhs: Money, rhs: Money) throws(MoneyError) -> Money {
        let currency = try lhs.sameCurrency(as: rhs)
        let (sum, overflow) = lhs.minorUnits.addingReportingOverflow(rhs.minorUnits)
        guard !overflow else { throw .overflow }
        return Money(minorUnits: sum, currency: currency)
    }

    public static func - (lhs: Money, rhs: Money) throws(MoneyError) -> Money {
        let currency = try lhs.sameCurrency(as: rhs)
        let (difference, overflow) = lhs.minorUnits.subtractingReportingOverflow(rhs.minorUnits)
        guard !overflow else { throw .overflow }
        return Money(minorUnits: difference, currency: currency)
    }

    /// The amount times a whole number, e.g. a unit price times a quantity.
    public static func * (lhs: Money, factor: Int) throws(MoneyError) -> Money {
        let (product, overflow) = lhs.minorUnits.multipliedReportingOverflow(by: Int64(factor))
        guard !overflow else { throw .overflow }
        return Money(minorUnits: product, currency: lhs.currency)
    }

    /// The share `rate` of this amount, rounded to the minor unit by `rounding`.
    ///
    /// 10 % of €44.95 is €4.495, which is €4.50 under ``RoundingRule/halfAwayFromZero``.
    public func portion(_ rate: Rate, rounding: RoundingRule) throws(MoneyError) -> Money {
        let (scaled, overflow) = minorUnits.multipliedReportingOverflow(by: Int64(rate.basisPoints))
        guard !overflow else { throw .overflow }
        return Money(minorUnits: rounding.divide(scaled, by: Rate.basisPointsPerWhole), currency: currency)
    }

    // MARK: Comparison

    public static func < (lhs: Money, rhs: Money) throws(MoneyError) -> Bool {
        _ = try lhs.sameCurrency(as: rhs)
        return lhs.minorUnits < rhs.minorUnits
    }

    public static func >= (lhs: Money, rhs: Money) throws(MoneyError) -> Bool {
        try !(lhs < rhs)
    }

    /// The smaller of two amounts in the same currency.
    public static func min(_ lhs: Money, _ rhs: Money) throws(MoneyError) -> Money {
        try lhs < rhs ? lhs : rhs
    }

    /// The larger of two amounts in the same currency.
    public static func max(_ lhs: Money, _ rhs: Money) throws(MoneyError) -> Money {
        try lhs < rhs ? rhs : lhs
    }

    /// The sum of `amounts`, all in `currency` (zero when empty).
    public static func sum(_ amounts: some Sequence<Money>, in currency: Currency) throws(MoneyError) -> Money {
        var total = Money.zero(currency)
        for amount in amounts { total = try total + amount }
        return total
    }

    private func sameCurrency(as other: Money) throws(MoneyError) -> Currency {
        guard currency == other.currency else { throw .currencyMismatch(currency, other.currency) }
        return currency
    }
}
