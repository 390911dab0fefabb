/// The login form at `/login`: **Email**, **Password**, **Log in**.
public struct LoginPage: Hashable, Sendable {
    /// The email typed last time, put back after a failed attempt.
    public var email: String
    /// Why the last attempt failed, e.g. "That email and password don't match an account."
    public var error: String?

    public init(email: String = "", error: String? = nil) {
        self.email = email
        self.error = error
    }

    /// The one answer to wrong credentials, the same whether the email exists or not.
    public static let wrongCredentials = "That email and password don't match an account."
}
