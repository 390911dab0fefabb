import StoreAPI
import StoreClient
import Testing

/// A ``SessionClient`` that answers only what a test set up; any other call fails the test.
@MainActor
final class FakeSessionClient: SessionClient {
    var onStartSession: (@MainActor () async -> Result<SessionResponse, StoreClientError>)?
    var onLogin: (@MainActor (LoginRequest) async -> Result<LoginResponse, StoreClientError>)?
    var onLogout: (@MainActor () async -> Void)?

    func startSession() async throws(StoreClientError) -> SessionResponse {
        guard let onStartSession else { throw unexpectedCall("SessionClient.startSession()") }
        return try await onStartSession().get()
    }

    func login(_ request: LoginRequest) async throws(StoreClientError) -> LoginResponse {
        guard let onLogin else { throw unexpectedCall("SessionClient.login(\(request.email))") }
        return try await onLogin(request).get()
    }

    func logout() async {
        guard let onLogout else {
            _ = unexpectedCall("SessionClient.logout()")
            return
        }
        await onLogout()
    }
}
