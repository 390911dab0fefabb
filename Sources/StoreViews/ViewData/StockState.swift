import CheckoutKit

extension StockState {
    /// "Only 3 left", "Sold out", or `nil` when there is plenty.
    public var label: String? {
        switch self {
        case .inStock: nil
        case .low(let units): "Only \(units) left"
        case .soldOut: "Sold out"
        }
    }
}
