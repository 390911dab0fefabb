import Foundation

/// Why a login was refused.
package enum LoginError: Error, Hashable, Sendable {
    /// Text that cannot be an email address: longer than 254 characters or holding control characters.
    case invalidEmail
    /// A wrong password or an unknown email — the same answer for both.
    case invalidCredentials
    /// Over one of the login throttle's limits: try again after `retryAfter` seconds.
    case throttled(retryAfter: TimeInterval)
}

extension LoginError {
    /// The refusal in words for people, the same on every face.
    package var message: String {
        switch self {
        case .invalidEmail: "An email address has at most 254 characters and no control characters."
        case .invalidCredentials: "The email or password is incorrect."
        case .throttled: "Too many failed logins. Try again in a few minutes."
        }
    }
}
