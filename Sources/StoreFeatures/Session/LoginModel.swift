import Foundation
import Observation
import StoreAPI
import StoreClient

/// The login form: email, password, Log in (docs/BEHAVIOUR.md §8).
@MainActor
@Observable
public final class LoginModel {
    public var email = ""
    public var password = ""
    public private(set) var isLoggingIn = false
    /// Why the last try failed ("The email or password is incorrect.").
    public private(set) var errorMessage: String?
    /// Called with the customer once logged in.
    public var onLoggedIn: @MainActor (CustomerBody) -> Void = { _ in }

    private let session: any SessionClient

    public init(session: any SessionClient) {
        self.session = session
    }

    /// Whether Log in is enabled.
    public var canLogIn: Bool {
        !email.trimmingCharacters(in: .whitespaces).isEmpty && !password.isEmpty && !isLoggingIn
    }

    /// Log in.
    public func logInButtonTapped() async {
        guard canLogIn else { return }
        isLoggingIn = true
        defer { isLoggingIn = false }
        errorMessage = nil
        do throws(StoreClientError) {
            let answer = try await session.login(
                LoginRequest(email: email.trimmingCharacters(in: .whitespaces), password: password))
            password = ""
            onLoggedIn(answer.customer)
        } catch {
            errorMessage = error.message
        }
    }
}
