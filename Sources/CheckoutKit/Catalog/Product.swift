/// The identifier of a product in the catalog.
public struct ProductID: RawRepresentable, Hashable, Sendable, Comparable {
    public let rawValue: Int64

    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// The id written in `text` (a path segment, a form field, a cookie's value) if it is a
    /// positive whole number in decimal digits, else `nil`: text that cannot name a product goes no
    /// further. The one parser of product ids from outside, for every face.
    public init?(parsing text: some StringProtocol) {
        guard let value = Int64(positiveDecimal: text) else { return nil }
        rawValue = value
    }

    public static func < (lhs: ProductID, rhs: ProductID) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension ProductID: CustomStringConvertible {
    public var description: String { String(rawValue) }
}

/// A product's average review score (0.0 to 5.0, one decimal) and how many reviews it has.
public struct Rating: Hashable, Sendable {
    /// The score in tenths: 39 is 3.9.
    public let tenths: Int
    public let count: Int

    /// A rating with a score between 0 and 50 tenths and a non-negative count, or `nil`.
    public init?(tenths: Int, count: Int) {
        guard (0...50).contains(tenths), count >= 0 else { return nil }
        self.tenths = tenths
        self.count = count
    }

    /// `3.9`.
    public var scoreText: String { "\(tenths / 10).\(tenths % 10)" }
}

/// Something the store sells.
public struct Product: Hashable, Sendable, Identifiable {
    public let id: ProductID
    public var title: String
    public var description: String
    public var category: String
    public var price: Money
    /// The image's path on this store's server, e.g. `/images/water-bottle.svg`.
    public var imagePath: String
    public var rating: Rating
    /// Units available to sell (the database keeps it at zero or above).
    public var stock: Int

    public init(
        id: ProductID, title: String, description: String, category: String, price: Money, imagePath: String,
        rating: Rating, stock: Int
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.category = category
        self.price = price
        self.imagePath = imagePath
        self.rating = rating
        self.stock = stock
    }

    public var isInStock: Bool { stock > 0 }
}

extension Int64 {
    /// The number written in `text` if it is a positive whole number in decimal digits only (no
    /// sign, no spaces, no other digits than ASCII's), else `nil`: how the store reads the ids
    /// that come from outside.
    public init?(positiveDecimal text: some StringProtocol) {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int64(text), value > 0
        else { return nil }
        self = value
    }
}
