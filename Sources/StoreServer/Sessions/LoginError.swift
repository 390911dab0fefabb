import Foundation

/// Why a login was refused.
enum LoginError: Error, Hashable, Sendable {
    /// A wrong password or an unknown email — the same answer for both.
    case invalidCredentials
    /// Too many failed attempts for the account or from the address: try again after `retryAfter` seconds.
    case throttled(retryAfter: TimeInterval)
}
