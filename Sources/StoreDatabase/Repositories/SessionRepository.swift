import CheckoutKit
import Foundation
import StoreSQL

/// A live session: who the bearer of the token is.
public struct SessionRecord: Hashable, Sendable {
    public let shopperID: ShopperID
    /// The signed-in customer, or `nil` for an anonymous shopper.
    public let customerID: CustomerID?
    public let expiresAt: Date
}

/// Shoppers and their sessions. Only the SHA-256 of a session token is ever stored.
public struct SessionRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Creates an anonymous shopper with a session for `tokenHash`, and with `lines` in its basket —
    /// all in one transaction, so a line that cannot be set leaves nothing behind.
    ///
    /// - Throws: ``BasketLineError`` for a line that cannot be set.
    public func createAnonymousSession(
        tokenHash: [UInt8], now: Date, expiresAt: Date, lines: [(ProductID, Quantity)] = []
    ) async throws -> ShopperID {
        let shopper = ShopperID.random()
        try await database.write { connection in
            try connection.execute(
                "INSERT INTO shoppers (id, customer_id, created_at) VALUES (\(shopper.rawValue), NULL, \(now.unixMilliseconds))"
            )
            try Self.insertSession(
                tokenHash: tokenHash, shopper: shopper, now: now, expiresAt: expiresAt, on: connection)
            try BasketRepository.setQuantities(lines, for: shopper, now: now, on: connection)
        }
        return shopper
    }

    /// Creates a session for `customer` on the customer's own shopper (made on first login).
    ///
    /// When the caller was an anonymous shopper (`previous`), that basket is kept: its lines are
    /// added to the customer's basket (capped at 10 per line) and its promotion code carries over
    /// when the customer's basket has none; its payment attempts (with their keys) and orders move
    /// to the customer too. All in one transaction.
    public func createCustomerSession(
        tokenHash: [UInt8], customer: CustomerID, previous: ShopperID?, now: Date, expiresAt: Date
    ) async throws -> ShopperID {
        try await createCustomerSessionMerging(
            tokenHash: tokenHash, customer: customer, previous: previous, now: now, expiresAt: expiresAt
        ).shopper
    }

    /// What logging in did: the customer's shopper, and the products whose quantities the merge
    /// of the anonymous basket capped (see `Quantity.merged(with:)`).
    public struct CustomerSession: Hashable, Sendable {
        public let shopper: ShopperID
        public let cappedProducts: [ProductID]
    }

    /// ``createCustomerSession(tokenHash:customer:previous:now:expiresAt:)``, saying which
    /// merged lines were capped.
    public func createCustomerSessionMerging(
        tokenHash: [UInt8], customer: CustomerID, previous: ShopperID?, now: Date, expiresAt: Date
    ) async throws -> CustomerSession {
        let candidate = ShopperID.random()
        return try await database.write { connection in
            try connection.execute(
                """
                INSERT INTO shoppers (id, customer_id, created_at)
                VALUES (\(candidate.rawValue), \(customer.rawValue), \(now.unixMilliseconds))
                ON CONFLICT (customer_id) DO NOTHING
                """)
            guard
                let row = try connection.queryFirst(
                    "SELECT id FROM shoppers WHERE customer_id = \(customer.rawValue)")
            else { throw DatabaseError(kind: .other, code: "shopper", message: "customer shopper missing") }
            let shopper = ShopperID(rawValue: try row.decode("id"))
            var capped: [ProductID] = []
            if let previous, previous != shopper {
                capped = try BasketRepository.merge(from: previous, into: shopper, now: now, on: connection)
                try PaymentRepository.carry(from: previous, to: shopper, on: connection)
            }
            try Self.insertSession(
                tokenHash: tokenHash, shopper: shopper, now: now, expiresAt: expiresAt, on: connection)
            return CustomerSession(shopper: shopper, cappedProducts: capped)
        }
    }

    /// The live session for `tokenHash` at `now`, or `nil` when unknown or expired.
    public func session(tokenHash: [UInt8], now: Date) async throws -> SessionRecord? {
        try await database.lookup { connection in
            try connection.queryFirst(Self.sessionQuery(tokenHash: tokenHash, now: now)).map(Self.record)
        }
    }

    /// The live session for `tokenHash` and what pricing its shopper's basket needs, read together
    /// (for a checkout) in one lookup: on PostgreSQL in one round trip, the basket's statements
    /// finding the shopper through the token; on SQLite, in the store's process, one after the
    /// other with the shopper's id, reading only what the basket needs. `nil` when the session is
    /// unknown or expired.
    public func sessionWithPricingInputs(
        tokenHash: [UInt8], now: Date
    ) async throws -> (session: SessionRecord, pricing: PricingInputs)? {
        try await database.lookup { connection in
            guard connection.dialect == .postgres else {
                guard let row = try connection.queryFirst(Self.sessionQuery(tokenHash: tokenHash, now: now)) else {
                    return nil
                }
                let session = try Self.record(row)
                let pricing = try BasketRepository.pricingInputs(
                    for: session.shopperID, customer: session.customerID, on: connection)
                return (session, pricing)
            }
            let shopper: SQLQuery = """
                (SELECT shopper_id FROM sessions
                 WHERE token_hash = \(tokenHash) AND expires_at > \(now.unixMilliseconds))
                """
            let answers = try connection.queryEach(
                [Self.sessionQuery(tokenHash: tokenHash, now: now)]
                    + BasketRepository.pricingQueries(
                        shopper: shopper, customer: "(SELECT customer_id FROM shoppers WHERE id = \(shopper))"))
            guard let row = answers.first?.first else { return nil }
            return (try Self.record(row), try BasketRepository.pricingInputs(from: answers.dropFirst()))
        }
    }

    private static func sessionQuery(tokenHash: [UInt8], now: Date) -> SQLQuery {
        """
        SELECT s.shopper_id, s.expires_at, sh.customer_id
        FROM sessions s JOIN shoppers sh ON sh.id = s.shopper_id
        WHERE s.token_hash = \(tokenHash) AND s.expires_at > \(now.unixMilliseconds)
        """
    }

    private static func record(_ row: SQLRow) throws -> SessionRecord {
        SessionRecord(
            shopperID: ShopperID(rawValue: try row.decode("shopper_id")),
            customerID: try row.decode("customer_id", as: Int64?.self).map(CustomerID.init(rawValue:)),
            expiresAt: try row.date("expires_at"))
    }

    /// Ends the session for `tokenHash` (logout).
    public func deleteSession(tokenHash: [UInt8]) async throws {
        try await database.write { connection in
            try connection.execute("DELETE FROM sessions WHERE token_hash = \(tokenHash)")
        }
    }

    static func insertSession(
        tokenHash: [UInt8], shopper: ShopperID, now: Date, expiresAt: Date, on connection: any SQLConnection
    ) throws {
        try connection.execute(
            """
            INSERT INTO sessions (token_hash, shopper_id, created_at, expires_at)
            VALUES (\(tokenHash), \(shopper.rawValue), \(now.unixMilliseconds), \(expiresAt.unixMilliseconds))
            """)
    }
}
