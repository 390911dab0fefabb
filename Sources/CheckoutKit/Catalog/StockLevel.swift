/// How a product's stock stands for the people who restock it (docs/BEHAVIOUR.md §13.11): the
/// back office's one rule, apart from what shoppers are told (``StockState``).
public enum StockLevel: Hashable, Sendable {
    /// More than ``lowStockThreshold`` units.
    case enough
    /// From 1 to ``lowStockThreshold`` units: time to order more.
    case low(Int)
    /// No units.
    case soldOut

    /// At or below this many units (and above zero), a product is low on stock.
    public static let lowStockThreshold = 5

    public init(units: Int) {
        if units <= 0 {
            self = .soldOut
        } else if units <= Self.lowStockThreshold {
            self = .low(units)
        } else {
            self = .enough
        }
    }
}
