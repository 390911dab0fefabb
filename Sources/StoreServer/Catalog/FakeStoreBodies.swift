import CheckoutKit
import Foundation
import StoreAPI

/// A product in the Fake Store API's shape: a plain-number price and an absolute image URL.
struct FakeStoreProduct: Codable, Sendable {
    var id: Int64
    var title: String
    /// The price as a JSON number (that API's shape), exact through `Decimal`.
    var price: Decimal
    var description: String
    var category: String
    var image: String
    var rating: RatingBody

    init(_ product: Product, imageBase: String) {
        id = product.id.rawValue
        title = product.title
        price = product.price.decimalAmount
        description = product.description
        category = product.category
        image = imageBase + product.imagePath
        rating = RatingBody(product.rating)
    }
}

/// A user in the Fake Store API's shape — never with a password.
struct FakeStoreUser: Codable, Sendable {
    struct Name: Codable, Sendable {
        var firstname: String
        var lastname: String
    }

    var id: Int64
    var email: String
    var username: String
    var name: Name
}

/// One line of a Fake Store cart.
struct FakeStoreCartLine: Codable, Sendable {
    var productId: Int64
    var quantity: Int
}

/// `POST /carts`: the documented cart object, or the bare array of lines apps actually send.
struct FakeStoreCartRequest: Decodable, Sendable {
    var userId: Int64?
    var date: String?
    var products: [FakeStoreCartLine]

    private enum CodingKeys: String, CodingKey {
        case userId
        case date
        case products
    }

    init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            var lines: [FakeStoreCartLine] = []
            while !list.isAtEnd { lines.append(try list.decode(FakeStoreCartLine.self)) }
            products = lines
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userId = try container.decodeIfPresent(Int64.self, forKey: .userId)
        date = try container.decodeIfPresent(String.self, forKey: .date)
        products = try container.decode([FakeStoreCartLine].self, forKey: .products)
    }
}

/// The cart as the Fake Store API answers it.
struct FakeStoreCart: Codable, Sendable {
    var id: Int64
    var userId: Int64?
    var date: String
    var products: [FakeStoreCartLine]
}

/// `POST /auth/login` in the Fake Store API's shape; the username is the customer's email.
struct FakeStoreLoginRequest: Codable, Sendable {
    var username: String
    var password: String
}

struct FakeStoreLoginResponse: Codable, Sendable {
    var token: String
}
