import CheckoutKit
import Foundation
import StoreSQL

/// A registered customer as stored. The password exists only as its Argon2id hash.
public struct CustomerRecord: Hashable, Sendable {
    public let id: CustomerID
    public let email: String
    public let passwordHash: String
    public let firstName: String
    public let lastName: String
    public let subscription: SubscriptionFacts
    public let createdAt: Date
}

/// A customer to register.
public struct NewCustomer: Hashable, Sendable {
    public var email: String
    public var passwordHash: String
    public var firstName: String
    public var lastName: String
    public var subscription: SubscriptionFacts

    public init(
        email: String, passwordHash: String, firstName: String, lastName: String, subscription: SubscriptionFacts
    ) {
        self.email = email
        self.passwordHash = passwordHash
        self.firstName = firstName
        self.lastName = lastName
        self.subscription = subscription
    }
}

/// Registers and finds customers.
public struct CustomerRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// An email address as the store keys it: trimmed and lower-cased.
    public static func normalizedEmail(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// Registers `customer`.
    ///
    /// - Throws: a ``StoreSQL/DatabaseError`` of kind `.uniqueViolation` when the email is taken.
    public func create(_ customer: NewCustomer, now: Date) async throws -> CustomerID {
        let email = Self.normalizedEmail(customer.email)
        return try await database.write { connection in
            let row = try connection.queryFirst(
                """
                INSERT INTO customers (email, password_hash, first_name, last_name, subscription_expires_at,
                                       subscription_auto_renew, created_at)
                VALUES (\(email), \(customer.passwordHash), \(customer.firstName), \(customer.lastName),
                        \(customer.subscription.expiresAt?.unixMilliseconds), \(customer.subscription.willAutoRenew),
                        \(now.unixMilliseconds))
                RETURNING id
                """)
            guard let row else { throw DatabaseError(kind: .other, code: "insert", message: "no id returned") }
            return CustomerID(rawValue: try row.decode("id"))
        }
    }

    /// The customer registered with `email` (compared after normalizing), if any.
    public func customer(email: String) async throws -> CustomerRecord? {
        let email = Self.normalizedEmail(email)
        return try await database.lookup { connection in
            try connection.queryFirst("SELECT \(Self.columns) FROM customers WHERE email = \(email)").map(Self.record)
        }
    }

    /// The customer `id`, if any.
    public func customer(id: CustomerID) async throws -> CustomerRecord? {
        try await database.lookup { connection in
            try connection.queryFirst("SELECT \(Self.columns) FROM customers WHERE id = \(id.rawValue)").map(
                Self.record)
        }
    }

    /// Replaces a customer's password hash (after a login with an outdated cost).
    public func updatePasswordHash(_ hash: String, for id: CustomerID) async throws {
        try await database.write { connection in
            try connection.execute("UPDATE customers SET password_hash = \(hash) WHERE id = \(id.rawValue)")
        }
    }

    /// Stores what the store last heard about a customer's subscription.
    public func updateSubscription(_ facts: SubscriptionFacts, for id: CustomerID) async throws {
        try await database.write { connection in
            try connection.execute(
                """
                UPDATE customers SET subscription_expires_at = \(facts.expiresAt?.unixMilliseconds),
                                     subscription_auto_renew = \(facts.willAutoRenew)
                WHERE id = \(id.rawValue)
                """)
        }
    }

    static let columns: SQLQuery = """
        id, email, password_hash, first_name, last_name, subscription_expires_at, subscription_auto_renew, created_at
        """

    static func record(from row: SQLRow) throws -> CustomerRecord {
        CustomerRecord(
            id: CustomerID(rawValue: try row.decode("id")), email: try row.decode("email"),
            passwordHash: try row.decode("password_hash"), firstName: try row.decode("first_name"),
            lastName: try row.decode("last_name"),
            subscription: SubscriptionFacts(
                expiresAt: try row.optionalDate("subscription_expires_at"),
                willAutoRenew: try row.decode("subscription_auto_renew")),
            createdAt: try row.date("created_at"))
    }
}
