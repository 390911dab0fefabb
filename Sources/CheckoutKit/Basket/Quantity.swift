/// How many units of one product a basket line holds: 1 to 10.
///
/// A value of this type is always in range, so a line can never hold 0, 11 or −1 units.
public struct Quantity: Hashable, Sendable, Comparable {
    public static let range: ClosedRange<Int> = 1...10
    public static let one = Quantity(uncheckedValue: 1)
    public static let maximum = Quantity(uncheckedValue: range.upperBound)

    public let value: Int

    private init(uncheckedValue value: Int) {
        self.value = value
    }

    /// A quantity in 1…10, or `nil` outside it.
    public init?(_ value: Int) {
        guard Quantity.range.contains(value) else { return nil }
        self.value = value
    }

    /// One more, or `nil` at the maximum (the "+" button is disabled there).
    public var incremented: Quantity? { Quantity(value + 1) }
    /// One fewer, or `nil` at the minimum (the "−" button is disabled there).
    public var decremented: Quantity? { Quantity(value - 1) }

    /// This quantity and `other` together, as when a shopper's anonymous basket joins their
    /// account's at login: the sum, or the maximum when the sum is more (`wasCapped`).
    public func merged(with other: Quantity) -> (quantity: Quantity, wasCapped: Bool) {
        let sum = value + other.value
        return sum > Quantity.range.upperBound ? (.maximum, true) : (Quantity(uncheckedValue: sum), false)
    }

    public static func < (lhs: Quantity, rhs: Quantity) -> Bool { lhs.value < rhs.value }
}

extension Quantity: CustomStringConvertible {
    public var description: String { String(value) }
}
