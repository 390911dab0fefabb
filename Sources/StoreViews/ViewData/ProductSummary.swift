import CheckoutKit

/// A product as a catalog card shows it: title, price, image, rating and stock state.
public struct ProductSummary: Hashable, Sendable, Identifiable {
    public var id: ProductID
    public var title: String
    /// The category's name as the catalog knows it, e.g. `apparel`.
    public var category: String
    public var price: Money
    /// The image's path on this store's server, e.g. `/images/running-cap.svg`.
    public var imagePath: String
    public var rating: Rating
    public var stock: StockState

    public init(
        id: ProductID, title: String, category: String, price: Money, imagePath: String, rating: Rating,
        stock: StockState
    ) {
        self.id = id
        self.title = title
        self.category = category
        self.price = price
        self.imagePath = imagePath
        self.rating = rating
        self.stock = stock
    }

    /// The card for a catalog product.
    public init(_ product: Product, lowStockThreshold: Int = StockState.defaultLowStockThreshold) {
        self.init(
            id: product.id, title: product.title, category: product.category, price: product.price,
            imagePath: product.imagePath, rating: product.rating,
            stock: StockState(units: product.stock, lowStockThreshold: lowStockThreshold))
    }
}
