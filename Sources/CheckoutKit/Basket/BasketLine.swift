/// One line of a basket: a product at its unit price, times a quantity.
public struct BasketLine: Hashable, Sendable {
    public let productID: ProductID
    public var title: String
    public var unitPrice: Money
    public var quantity: Quantity

    public init(productID: ProductID, title: String, unitPrice: Money, quantity: Quantity) {
        self.productID = productID
        self.title = title
        self.unitPrice = unitPrice
        self.quantity = quantity
    }

    /// A line for `product` at its current price.
    public init(product: Product, quantity: Quantity) {
        self.init(productID: product.id, title: product.title, unitPrice: product.price, quantity: quantity)
    }

    /// Unit price × quantity.
    public func total() throws(MoneyError) -> Money {
        try unitPrice * quantity.value
    }
}
