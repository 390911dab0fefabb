import StoreAPI

/// Who the client speaks for (docs/BEHAVIOUR.md §8): an anonymous shopper or a logged-in customer.
///
/// The client keeps the bearer token it is given and sends it with every later request; an
/// implementation starts an anonymous session by itself when a request needs one and it has none.
public protocol SessionClient: Sendable {
    /// `POST /api/sessions` — a new anonymous shopper, whose token the client keeps from now on.
    func startSession() async throws(StoreClientError) -> SessionResponse

    /// `POST /api/login` — a customer session, whose token the client keeps from now on. The
    /// anonymous basket is kept. Wrong credentials are ``StoreClientError/unauthorized(message:)``.
    func login(_ request: LoginRequest) async throws(StoreClientError) -> LoginResponse

    /// Ends the customer session: the client forgets its token, so the next request is an
    /// anonymous shopper's with an empty basket. Never fails from the shopper's point of view.
    func logout() async
}
