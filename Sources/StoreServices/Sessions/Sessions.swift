import CheckoutKit
import Concurrency
import Foundation
import StoreCrypto
import StoreDatabase

/// Who is calling: the shopper behind a valid session token.
package struct Shopper: Sendable {
    package let id: ShopperID
    /// The signed-in customer, or `nil` for an anonymous shopper.
    package let customerID: CustomerID?
}

/// Creates sessions and recognises their tokens: how a token travels (a bearer header, a cookie) is
/// each face's business. A token is 256 random bits; the database keeps only its SHA-256.
package struct Sessions: Sendable {
    package let database: StoreDatabase
    package let clock: StoreClock
    package let lifetime: TimeInterval
    /// Recently seen sessions, so that a shopper's burst of requests reads the session once.
    package let cache = SessionCache(capacity: 10_000, maximumAge: 10)
    /// How many anonymous shoppers one address may create.
    package let newShoppers: NewShopperLimit

    package init(database: StoreDatabase, clock: StoreClock, lifetime: TimeInterval, newShoppers: NewShopperLimit) {
        self.database = database
        self.clock = clock
        self.lifetime = lifetime
        self.newShoppers = newShoppers
    }

    /// A new anonymous shopper and the token that stands for them, with `lines` in the basket (set
    /// in the same transaction: nothing is created when a line cannot be set).
    ///
    /// - Throws: ``SessionError/tooManyNewShoppers(retryAfter:)`` when `address` has created too
    ///   many lately, ``StoreDatabase/BasketLineError`` for a line that cannot be set.
    package func createAnonymous(from address: String?, lines: [(ProductID, Quantity)] = []) async throws -> SecretToken
    {
        let now = clock.now()
        try newShoppers.take(for: address, now: now)
        let token = SecretToken.generate()
        _ = try await database.sessions.createAnonymousSession(
            tokenHash: token.hash, now: now, expiresAt: now.addingTimeInterval(lifetime), lines: lines)
        return token
    }

    /// A new session for `customer`, keeping the basket of the anonymous shopper `previous`.
    package func createForCustomer(_ customer: CustomerID, previous: Shopper?) async throws -> SecretToken {
        try await logIn(customer, previous: previous).token
    }

    /// A new session for `customer`, keeping the basket of the anonymous shopper `previous`, and
    /// the products whose merged quantity was capped.
    package func logIn(
        _ customer: CustomerID, previous: Shopper?
    ) async throws -> (token: SecretToken, capped: [ProductID]) {
        let token = SecretToken.generate()
        let now = clock.now()
        let session = try await database.sessions.createCustomerSessionMerging(
            tokenHash: token.hash, customer: customer, previous: previous?.id, now: now,
            expiresAt: now.addingTimeInterval(lifetime))
        return (token, session.cappedProducts)
    }

    package func shopper(for token: SecretToken) async throws -> Shopper? {
        let hash = token.hash
        let now = clock.now()
        if let cached = cache.shopper(for: hash, now: now) { return cached }
        guard let session = try await database.sessions.session(tokenHash: hash, now: now) else { return nil }
        return remembered(session, for: hash, now: now)
    }

    /// The shopper behind `token` and, unless the session was seen in the last few seconds, what
    /// pricing their basket needs, read with the session (one round trip on PostgreSQL): for a
    /// checkout, which prices the basket next. `nil` when the token is not valid.
    package func shopperWithBasket(for token: SecretToken) async throws -> (shopper: Shopper, basket: PricingInputs?)? {
        let hash = token.hash
        let now = clock.now()
        if let cached = cache.shopper(for: hash, now: now) { return (cached, nil) }
        guard let read = try await database.sessions.sessionWithPricingInputs(tokenHash: hash, now: now) else {
            return nil
        }
        return (remembered(read.session, for: hash, now: now), read.pricing)
    }

    /// The shopper of a session just read, kept in the cache.
    private func remembered(_ session: SessionRecord, for hash: [UInt8], now: Date) -> Shopper {
        let shopper = Shopper(id: session.shopperID, customerID: session.customerID)
        cache.remember(shopper, for: hash, expiresAt: session.expiresAt, now: now)
        return shopper
    }

    /// Ends the session of `token` (logout, or the anonymous session replaced at login): the token
    /// stops working at once on this server, and within the cache's few seconds on the others.
    package func end(_ token: SecretToken) async throws {
        cache.forget(token.hash)
        try await database.sessions.deleteSession(tokenHash: token.hash)
    }
}

/// Sessions seen in the last few seconds, by token hash.
///
/// Sessions are never changed once made — they only expire — so a cached entry is right until
/// its session's own expiry; the short maximum age bounds how long a session deleted in the
/// database (by another server's clean-up) keeps working here.
package final class SessionCache: Sendable {
    private struct Entry {
        let shopper: Shopper
        let validUntil: Date
    }

    private let entries = Locked<[[UInt8]: Entry]>([:])
    private let capacity: Int
    private let maximumAge: TimeInterval

    package init(capacity: Int, maximumAge: TimeInterval) {
        self.capacity = capacity
        self.maximumAge = maximumAge
    }

    package func shopper(for hash: [UInt8], now: Date) -> Shopper? {
        entries.withLock { entries in
            guard let entry = entries[hash] else { return nil }
            guard entry.validUntil > now else {
                entries[hash] = nil
                return nil
            }
            return entry.shopper
        }
    }

    package func forget(_ hash: [UInt8]) {
        _ = entries.withLock { $0.removeValue(forKey: hash) }
    }

    package func remember(_ shopper: Shopper, for hash: [UInt8], expiresAt: Date, now: Date) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[hash] = Entry(shopper: shopper, validUntil: min(expiresAt, now.addingTimeInterval(maximumAge)))
        }
    }
}
