import Foundation
import StoreCrypto
import StoreDatabase

/// Checks an email and password, with the same answer — and about the same time — whether the
/// email exists or not.
package struct Login: Sendable {
    package let database: StoreDatabase
    package let passwords: PasswordCheck

    package init(
        database: StoreDatabase, hasher: PasswordHasher, throttle: LoginThrottle, clock: StoreClock, decoyHash: String
    ) {
        self.database = database
        self.passwords = PasswordCheck(hasher: hasher, throttle: throttle, clock: clock, decoyHash: decoyHash)
    }

    /// The customer with `email` and `password`.
    ///
    /// - Throws: ``LoginError/invalidEmail`` for text that cannot be an email address (longer than
    ///   254 characters, or holding control characters), ``LoginError/invalidCredentials`` for a wrong
    ///   password or an unknown email alike, or ``LoginError/throttled(retryAfter:)`` while the
    ///   attempt is over a limit of ``LoginThrottle``.
    package func authenticate(email: String, password: String, address: String?) async throws -> CustomerRecord {
        let (customer, opened) = try await passwords.check(email: email, password: password, address: address) {
            try await database.customers.customer(email: $0).map { ($0, $0.passwordHash) }
        }
        guard let customer, opened else { throw LoginError.invalidCredentials }
        let hasher = passwords.hasher
        if hasher.needsRehash(customer.passwordHash) {
            // The stored hash was made with other costs: replace it now that the password is known.
            let customers = database.customers
            Task.detached(priority: .background) {
                if let fresh = try? await hasher.hashOffThePool(password) {
                    try? await customers.updatePasswordHash(fresh, for: customer.id)
                }
            }
        }
        return customer
    }

    /// The longest email address there can be: 254 characters (RFC 5321's path limit less its
    /// brackets, counted in characters — Unicode scalars — as the API's schema counts them).
    package static let maximumEmailLength = 254

    /// Whether `text` could be an email address: at most 254 characters and no control characters
    /// (a NUL could not even be stored). Checked before anything else is done with it, so a 1 MB
    /// "email" costs one bounded scan.
    package static func couldBeAnEmail(_ text: String) -> Bool {
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            if count > maximumEmailLength || scalar.properties.generalCategory == .control { return false }
        }
        return true
    }
}
