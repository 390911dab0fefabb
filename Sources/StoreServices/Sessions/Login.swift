import Foundation
import StoreCrypto
import StoreDatabase

/// Checks an email and password, with the same answer — and about the same time — whether the
/// email exists or not.
package struct Login: Sendable {
    package let database: StoreDatabase
    package let hasher: PasswordHasher
    package let throttle: LoginThrottle
    package let clock: StoreClock
    /// A hash to verify against when the email is unknown, so both cases cost one Argon2id check.
    package let decoyHash: String

    package init(
        database: StoreDatabase, hasher: PasswordHasher, throttle: LoginThrottle, clock: StoreClock, decoyHash: String
    ) {
        self.database = database
        self.hasher = hasher
        self.throttle = throttle
        self.clock = clock
        self.decoyHash = decoyHash
    }

    /// The customer with `email` and `password`.
    ///
    /// - Throws: ``LoginError/invalidEmail`` for text that cannot be an email address (longer than
    ///   254 characters, or holding control characters), ``LoginError/invalidCredentials`` for a wrong
    ///   password or an unknown email alike, or ``LoginError/throttled(retryAfter:)`` while the
    ///   attempt is over a limit of ``LoginThrottle``.
    package func authenticate(email: String, password: String, address: String?) async throws -> CustomerRecord {
        guard Self.couldBeAnEmail(email) else { throw LoginError.invalidEmail }
        let account = CustomerRepository.normalizedEmail(email)
        let ticket = try throttle.begin(account: account, address: address, now: clock.now())
        let customer: CustomerRecord?
        let matches: Bool
        do {
            customer = try await database.customers.customer(email: account)
            matches = await verify(password, against: customer?.passwordHash ?? decoyHash)
        } catch {
            throttle.finish(ticket, succeeded: false, now: clock.now())
            throw error
        }
        guard let customer, matches else {
            throttle.finish(ticket, succeeded: false, now: clock.now())
            throw LoginError.invalidCredentials
        }
        throttle.finish(ticket, succeeded: true, now: clock.now())
        if hasher.needsRehash(customer.passwordHash) {
            // The stored hash was made with other costs: replace it now that the password is known.
            let hasher = self.hasher
            let customers = database.customers
            Task.detached(priority: .background) {
                if let fresh = try? hasher.hash(password) {
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

    /// Runs the memory-hard check on a Dispatch thread, not on the Swift concurrency pool.
    private func verify(_ password: String, against hash: String) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: hasher.verify(password, against: hash))
            }
        }
    }
}
