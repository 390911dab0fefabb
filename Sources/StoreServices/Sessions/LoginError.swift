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
