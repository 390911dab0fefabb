import Foundation
import StoreCrypto
import StoreDatabase

/// Checks an email and password, with the same answer — and about the same time — whether the
/// email exists or not.
struct Login: Sendable {
    let database: StoreDatabase
    let hasher: PasswordHasher
    let throttle: LoginThrottle
    let clock: StoreClock
    /// A hash to verify against when the email is unknown, so both cases cost one Argon2id check.
    let decoyHash: String

    /// The customer with `email` and `password`.
    ///
    /// - Throws: ``LoginError/invalidCredentials`` for a wrong password or an unknown email alike,
    ///   or ``LoginError/throttled(retryAfter:)`` while the account or the address is throttled.
    func authenticate(email: String, password: String, address: String?) async throws -> CustomerRecord {
        let account = CustomerRepository.normalizedEmail(email)
        let now = clock.now()
        if let wait = throttle.retryAfter(account: account, address: address, now: now) {
            throw LoginError.throttled(retryAfter: wait)
        }
        let customer = try await database.customers.customer(email: account)
        let matches = await verify(password, against: customer?.passwordHash ?? decoyHash)
        guard let customer, matches else {
            throttle.recordFailure(account: account, address: address, now: now)
            throw LoginError.invalidCredentials
        }
        throttle.recordSuccess(account: account)
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

    /// Runs the memory-hard check on a Dispatch thread, not on the Swift concurrency pool.
    private func verify(_ password: String, against hash: String) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: hasher.verify(password, against: hash))
            }
        }
    }
}
