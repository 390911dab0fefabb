import Foundation
import StoreCrypto
import StoreDatabase

/// How a password is checked at sign-in, for customers and staff alike: the account's and the
/// address's attempts throttled, and the memory-hard check made whether the account exists or not
/// (against a decoy hash when it does not), so that the answer and its time say nothing of which.
package struct PasswordCheck: Sendable {
    package let hasher: PasswordHasher
    package let throttle: LoginThrottle
    package let clock: StoreClock
    /// A hash to verify against when the email is unknown, so both cases cost one Argon2id check.
    package let decoyHash: String

    package init(hasher: PasswordHasher, throttle: LoginThrottle, clock: StoreClock, decoyHash: String) {
        self.hasher = hasher
        self.throttle = throttle
        self.clock = clock
        self.decoyHash = decoyHash
    }

    /// The account `find` reads for `email` (normalized), and whether `password` opens it. `find`
    /// answers the account with the hash that opens it — `nil` for an account that may not sign in
    /// (a removed member of staff), which is then checked against the decoy like an unknown email.
    ///
    /// - Throws: ``LoginError/invalidEmail`` for text that cannot be an email address,
    ///   ``LoginError/throttled(retryAfter:)`` while the attempt is over a limit, or what `find`
    ///   throws. A wrong password is not an error: `opened` is false.
    package func check<Account: Sendable>(
        email: String, password: String, address: String?,
        find: (String) async throws -> (account: Account, passwordHash: String?)?
    ) async throws -> (account: Account?, opened: Bool) {
        guard Login.couldBeAnEmail(email) else { throw LoginError.invalidEmail }
        let normalized = CustomerRepository.normalizedEmail(email)
        let ticket = try throttle.begin(account: normalized, address: address, now: clock.now())
        let found: (account: Account, passwordHash: String?)?
        let opened: Bool
        do {
            found = try await find(normalized)
            let hash = found?.passwordHash
            opened = await hasher.verifyOffThePool(password, against: hash ?? decoyHash) && hash != nil
        } catch {
            throttle.finish(ticket, succeeded: false, now: clock.now())
            throw error
        }
        throttle.finish(ticket, succeeded: opened, now: clock.now())
        return (found?.account, opened)
    }
}
