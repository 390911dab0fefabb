import CheckoutKit
import Foundation

/// A product in the Fake Store API's shape: a plain-number price and an absolute image URL.
public struct FakeStoreProduct: Codable, Sendable {
    public var id: Int64
    public var title: String
    /// The price as a JSON number (that API's shape), exact through `Decimal`.
    public var price: Decimal
    public var description: String
    public var category: String
    public var image: String
    public var rating: RatingBody

    public init(_ product: Product, imageBase: String) {
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
public struct FakeStoreUser: Codable, Sendable {
    public struct Name: Codable, Sendable {
        public var firstname: String
        public var lastname: String

        public init(firstname: String, lastname: String) {
            self.firstname = firstname
            self.lastname = lastname
        }
    }

    public var id: Int64
    public var email: String
    public var username: String
    public var name: Name

    public init(id: Int64, email: String, username: String, name: Name) {
        self.id = id
        self.email = email
        self.username = username
        self.name = name
    }
}

/// One line of a Fake Store cart.
public struct FakeStoreCartLine: Codable, Sendable {
    public var productId: Int64
    public var quantity: Int

    public init(productId: Int64, quantity: Int) {
        self.productId = productId
        self.quantity = quantity
    }
}

/// `POST /carts`: the documented cart object, or the bare array of lines apps actually send.
public struct FakeStoreCartRequest: Codable, Sendable {
    public var userId: Int64?
    public var date: String?
    public var products: [FakeStoreCartLine]

    private enum CodingKeys: String, CodingKey {
        case userId
        case date
        case products
    }

    public init(userId: Int64?, date: String?, products: [FakeStoreCartLine]) {
        self.userId = userId
        self.date = date
        self.products = products
    }

    public init(from decoder: any Decoder) throws {
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
public struct FakeStoreCart: Codable, Sendable {
    public var id: Int64
    public var userId: Int64?
    public var date: String
    public var products: [FakeStoreCartLine]

    public init(id: Int64, userId: Int64?, date: String, products: [FakeStoreCartLine]) {
        self.id = id
        self.userId = userId
        self.date = date
        self.products = products
    }
}

/// `POST /auth/login` in the Fake Store API's shape; the username is the customer's email.
public struct FakeStoreLoginRequest: Codable, Sendable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

public struct FakeStoreLoginResponse: Codable, Sendable {
    public var token: String

    public init(token: String) {
        self.token = token
    }
}
