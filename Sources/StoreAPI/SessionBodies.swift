/// `POST /api/sessions` → a bearer token for a new anonymous shopper.
public struct SessionResponse: Codable, Hashable, Sendable {
    public var token: String

    public init(token: String) {
        self.token = token
    }
}

/// `POST /api/login`.
public struct LoginRequest: Codable, Hashable, Sendable {
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// The answer to a successful login: a customer session token and who the customer is.
public struct LoginResponse: Codable, Hashable, Sendable {
    public var token: String
    public var customer: CustomerBody

    public init(token: String, customer: CustomerBody) {
        self.token = token
        self.customer = customer
    }
}

/// A customer as shown to themselves: never a password or its hash.
public struct CustomerBody: Codable, Hashable, Sendable {
    public var email: String
    public var firstName: String
    public var lastName: String

    private enum CodingKeys: String, CodingKey {
        case email
        case firstName = "first_name"
        case lastName = "last_name"
    }

    public init(email: String, firstName: String, lastName: String) {
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
    }
}
