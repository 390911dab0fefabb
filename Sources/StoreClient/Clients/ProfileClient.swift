import StoreAPI

/// The logged-in customer's own profile (docs/BEHAVIOUR.md §8).
public protocol ProfileClient: Sendable {
    /// `GET /api/profile` — name, email, tier and the subscription facts it was decided from.
    /// An anonymous shopper gets ``StoreClientError/unauthorized(message:)``.
    func profile() async throws(StoreClientError) -> ProfileBody
}
