/// A proportion of an amount, exact to a hundredth of a percent (a basis point).
///
/// A promotion's "10 % off" is `Rate(percent: 10)`; the card fee "0.8 %" is
/// `Rate(basisPoints: 80)`. Rates are never floating point.
public struct Rate: Hashable, Sendable {
    /// Hundredths of a percent: 10 000 is 100 %.
    public let basisPoints: Int

    /// The number of basis points in 100 %.
    public static let basisPointsPerWhole: Int64 = 10_000

    /// A rate between 0 % and 100 % inclusive, or `nil` outside that range.
    public init?(basisPoints: Int) {
        guard (0...10_000).contains(basisPoints) else { return nil }
        self.basisPoints = basisPoints
    }

    /// A rate the program itself spells out, known to be in range.
    init(uncheckedBasisPoints basisPoints: Int) {
        precondition((0...10_000).contains(basisPoints), "a rate is between 0 % and 100 %")
        self.basisPoints = basisPoints
    }

    /// A whole percentage between 0 and 100 inclusive, or `nil` outside that range.
    public init?(percent: Int) {
        guard (0...100).contains(percent) else { return nil }
        self.basisPoints = percent * 100
    }
}

extension Rate: CustomStringConvertible {
    /// `10 %`, `0.8 %`, `0.25 %`.
    public var description: String {
        let whole = basisPoints / 100
        let fraction = basisPoints % 100
        if fraction == 0 { return "\(whole) %" }
        let digits = fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")
        return "\(whole).\(digits) %"
    }
}
