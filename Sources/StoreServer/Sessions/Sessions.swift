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

    /// A new anonymous shopper and the token that stands for them.
    func createAnonymous() async throws -> SecretToken {
        let token = SecretToken.generate()
        let now = clock.now()
        _ = try await database.sessions.createAnonymousSession(
            tokenHash: token.hash, now: now, expiresAt: now.addingTimeInterval(lifetime))
        return token
    }

    /// A new session for `customer`, keeping the basket of the anonymous shopper `previous`.
    func createForCustomer(_ customer: CustomerID, previous: Shopper?) async throws -> SecretToken {
        let token = SecretToken.generate()
        let now = clock.now()
        _ = try await database.sessions.createCustomerSession(
            tokenHash: token.hash, customer: customer, previous: previous?.id, now: now,
            expiresAt: now.addingTimeInterval(lifetime))
        return token
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
        guard let session = try await database.sessions.session(tokenHash: token.hash, now: clock.now()) else {
            return nil
        }
        return Shopper(id: session.shopperID, customerID: session.customerID)
    }

    /// Wraps a handler that needs a shopper: without a valid bearer token the answer is 401.
    func authenticated(
        _ handler: @escaping @Sendable (Request, RequestContext, Shopper) async throws -> Response
    ) -> Router.Handler {
        { request, context in
            guard let shopper = try await shopper(for: request) else { throw APIError.unauthorized }
            var response = try await handler(request, context, shopper)
            response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
            return response
        }
    }
}
