import CheckoutKit

/// One line of the basket as the basket and checkout pages show it.
public struct BasketLineItem: Hashable, Sendable, Identifiable {
    public var productID: ProductID
    public var title: String
    /// The image's path on this store's server.
    public var imagePath: String
    public var unitPrice: Money
    /// 1…10.
    public var quantity: Int
    /// Unit price × quantity.
    public var lineTotal: Money

    public init(
        productID: ProductID, title: String, imagePath: String, unitPrice: Money, quantity: Int, lineTotal: Money
    ) {
        self.productID = productID
        self.title = title
        self.imagePath = imagePath
        self.unitPrice = unitPrice
        self.quantity = quantity
        self.lineTotal = lineTotal
    }

    public var id: ProductID { productID }
}
