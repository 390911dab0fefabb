import CheckoutKit
import Concurrency
import Foundation
import HTTPServer
import StoreCrypto
import StoreDatabase

/// Who is calling: the shopper behind a valid session token.
struct Shopper: Sendable {
    let id: ShopperID
    /// The signed-in customer, or `nil` for an anonymous shopper.
    let customerID: CustomerID?
}

/// Creates sessions and recognises their tokens.
///
/// The API authenticates with `Authorization: Bearer <token>` only, never with a cookie, so no
/// other site can make a browser call it on a shopper's behalf. A token is 256 random bits; the
/// database keeps only its SHA-256.
struct Sessions: Sendable {
    let database: StoreDatabase
    let clock: StoreClock
    let lifetime: TimeInterval
    /// Recently seen sessions, so that a shopper's burst of requests reads the session once.
    let cache = SessionCache(capacity: 10_000, maximumAge: 10)
    /// How many anonymous shoppers one address may create.
    let newShoppers: NewShopperLimit

    /// A new anonymous shopper and the token that stands for them, with `lines` in the basket (set
    /// in the same transaction: nothing is created when a line cannot be set).
    ///
    /// - Throws: ``SessionError/tooManyNewShoppers(retryAfter:)`` when `address` has created too
    ///   many lately, ``StoreDatabase/BasketLineError`` for a line that cannot be set.
    func createAnonymous(from address: String?, lines: [(ProductID, Quantity)] = []) async throws -> SecretToken {
        let now = clock.now()
        try newShoppers.take(for: address, now: now)
        let token = SecretToken.generate()
        _ = try await database.sessions.createAnonymousSession(
            tokenHash: token.hash, now: now, expiresAt: now.addingTimeInterval(lifetime), lines: lines)
        return token
    }

    /// A new session for `customer`, keeping the basket of the anonymous shopper `previous`.
    func createForCustomer(_ customer: CustomerID, previous: Shopper?) async throws -> SecretToken {
        try await logIn(customer, previous: previous).token
    }

    /// A new session for `customer`, keeping the basket of the anonymous shopper `previous`, and
    /// the products whose merged quantity was capped.
    func logIn(_ customer: CustomerID, previous: Shopper?) async throws -> (token: SecretToken, capped: [ProductID]) {
        let token = SecretToken.generate()
        let now = clock.now()
        let session = try await database.sessions.createCustomerSessionMerging(
            tokenHash: token.hash, customer: customer, previous: previous?.id, now: now,
            expiresAt: now.addingTimeInterval(lifetime))
        return (token, session.cappedProducts)
    }

    /// The bearer token of `request`, if it carries a well-formed one.
    static func bearerToken(of request: Request) -> SecretToken? {
        guard let header = request.headers["Authorization"] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return SecretToken(String(parts[1]).trimmingCharacters(in: .whitespaces))
    }

    /// The shopper behind `request`'s bearer token, or `nil` when it has none or it is not valid.
    func shopper(for request: Request) async throws -> Shopper? {
        guard let token = Self.bearerToken(of: request) else { return nil }
        return try await shopper(for: token)
    }

    func shopper(for token: SecretToken) async throws -> Shopper? {
        let hash = token.hash
        let now = clock.now()
        if let cached = cache.shopper(for: hash, now: now) { return cached }
        guard let session = try await database.sessions.session(tokenHash: hash, now: now) else { return nil }
        let shopper = Shopper(id: session.shopperID, customerID: session.customerID)
        cache.remember(shopper, for: hash, expiresAt: session.expiresAt, now: now)
        return shopper
    }

    /// Ends the session of `request`'s bearer token (logout): the token stops working at once on
    /// this server, and within the cache's few seconds on the others.
    func end(_ request: Request) async throws {
        guard let token = Self.bearerToken(of: request) else { return }
        try await end(token)
    }
}

/// Sessions seen in the last few seconds, by token hash.
///
/// Sessions are never changed once made — they only expire — so a cached entry is right until
/// its session's own expiry; the short maximum age bounds how long a session deleted in the
/// database (by another server's clean-up) keeps working here.
final class SessionCache: Sendable {
    private struct Entry {
        let shopper: Shopper
        let validUntil: Date
    }

    private let entries = Locked<[[UInt8]: Entry]>([:])
    private let capacity: Int
    private let maximumAge: TimeInterval

    init(capacity: Int, maximumAge: TimeInterval) {
        self.capacity = capacity
        self.maximumAge = maximumAge
    }

    func shopper(for hash: [UInt8], now: Date) -> Shopper? {
        entries.withLock { entries in
            guard let entry = entries[hash] else { return nil }
            guard entry.validUntil > now else {
                entries[hash] = nil
                return nil
            }
            return entry.shopper
        }
    }

    func forget(_ hash: [UInt8]) {
        _ = entries.withLock { $0.removeValue(forKey: hash) }
    }

    func remember(_ shopper: Shopper, for hash: [UInt8], expiresAt: Date, now: Date) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[hash] = Entry(shopper: shopper, validUntil: min(expiresAt, now.addingTimeInterval(maximumAge)))
        }
    }
}
