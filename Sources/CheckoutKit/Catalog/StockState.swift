/// How much of a product is left, as a shopper needs to know it: the one rule every face (the
/// storefront's pages, the terminal storefront) shows stock by, each in its own words.
public enum StockState: Hashable, Sendable {
    /// Plenty left; nothing is said.
    case inStock
    /// Only a few units left: "Only 3 left".
    case low(Int)
    /// None left: "Sold out", and the product cannot be added.
    case soldOut

    /// Below this many units a product shows "Only N left".
    public static let defaultLowStockThreshold = 30

    /// The state for `units` available, calling fewer than `lowStockThreshold` units low.
    public init(units: Int, lowStockThreshold: Int = StockState.defaultLowStockThreshold) {
        if units <= 0 {
            self = .soldOut
        } else if units < lowStockThreshold {
            self = .low(units)
        } else {
            self = .inStock
        }
    }

    public var isAvailable: Bool { self != .soldOut }
}
