/// A product's own page at `/product/{id}`: the catalog card's facts and the description.
public struct ProductPage: Hashable, Sendable {
    public var product: ProductSummary
    public var description: String
    /// How many units of it the basket already holds (0 when none).
    public var quantityInBasket: Int

    public init(product: ProductSummary, description: String, quantityInBasket: Int = 0) {
        self.product = product
        self.description = description
        self.quantityInBasket = quantityInBasket
    }
}
