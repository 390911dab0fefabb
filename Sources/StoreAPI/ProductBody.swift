import CheckoutKit
import Foundation

/// A product as the native API shows it (docs/BEHAVIOUR.md §9).
public struct ProductBody: Codable, Hashable, Sendable {
    public var id: Int64
    public var title: String
    public var description: String
    public var category: String
    public var price: Money
    /// The image's URL path on this server.
    public var image: String
    public var rating: RatingBody
    public var stock: Int

    public init(
        id: Int64, title: String, description: String, category: String, price: Money, image: String,
        rating: RatingBody, stock: Int
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.category = category
        self.price = price
        self.image = image
        self.rating = rating
        self.stock = stock
    }

    public init(_ product: Product) {
        self.init(
            id: product.id.rawValue, title: product.title, description: product.description,
            category: product.category, price: product.price, image: product.imagePath,
            rating: RatingBody(product.rating), stock: product.stock)
    }
}

/// A rating: `rate` is a JSON number with one decimal (`3.9`), `count` a whole number.
public struct RatingBody: Codable, Hashable, Sendable {
    /// The score, exact (a `Decimal`, never floating point).
    public var rate: Decimal
    public var count: Int

    public init(rate: Decimal, count: Int) {
        self.rate = rate
        self.count = count
    }

    public init(_ rating: Rating) {
        // tenths × 10⁻¹, built as such: a `Decimal` division costs thousands of instructions, and
        // the catalog's documents make one per product.
        self.init(rate: Decimal(sign: .plus, exponent: -1, significand: Decimal(rating.tenths)), count: rating.count)
    }
}
