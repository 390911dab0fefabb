import HTTPServer
import StoreCrypto
import StoreServices

/// The API's door to a session: `Authorization: Bearer <token>`, never a cookie, so no other site
/// can make a browser call the API on a shopper's behalf.
extension Sessions {
    /// The bearer token of `request`, if it carries a well-formed one.
    static func bearerToken(of request: Request) -> SecretToken? {
        guard let header = request.headers["Authorization"] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return SecretToken(String(HTTPHeaders.trimmingOptionalWhitespace(parts[1])))
    }

    /// The shopper behind `request`'s bearer token, or `nil` when it has none or it is not valid.
    func shopper(for request: Request) async throws -> Shopper? {
        guard let token = Self.bearerToken(of: request) else { return nil }
        return try await shopper(for: token)
    }

    /// Ends the session of `request`'s bearer token (logout).
    func end(_ request: Request) async throws {
        guard let token = Self.bearerToken(of: request) else { return }
        try await end(token)
    }
}
