import CheckoutKit
import Foundation
import StoreCrypto
import StoreDatabase

/// Why a member of staff could not be added as asked.
package enum StaffInputError: Error, Hashable, Sendable {
    /// Not an email address (`a@b`, at most 254 characters, no control characters).
    case invalidEmail
    /// Shorter than ``StaffService/minimumPasswordLength`` characters.
    case passwordTooShort
}

/// The people who run the shop (docs/BEHAVIOUR.md §13): adding them, their sign-in — throttled like
/// a customer's, the same answer whether the email exists or not — and their sessions, which end
/// after 30 minutes unused or 8 hours in all. Every sign-in and failed sign-in is in the audit log.
package struct StaffService: Sendable {
    /// A staff session ends after this long unused…
    package static let idleLimit: TimeInterval = 30 * 60
    /// …and after this long in all, however busy.
    package static let sessionLimit: TimeInterval = 8 * 3_600
    /// The shortest password a member of staff may have.
    package static let minimumPasswordLength = 12

    package let database: StoreDatabase
    package let passwords: PasswordCheck

    package init(
        database: StoreDatabase, hasher: PasswordHasher, throttle: LoginThrottle, clock: StoreClock, decoyHash: String
    ) {
        self.database = database
        self.passwords = PasswordCheck(hasher: hasher, throttle: throttle, clock: clock, decoyHash: decoyHash)
    }

    private var clock: StoreClock { passwords.clock }

    /// Adds a member of staff with `role`, by `actor`.
    ///
    /// - Throws: ``StaffInputError``, or `StaffChangeError.emailTaken`.
    package func add(email: String, role: StaffRole, password: String, by actor: AuditActor) async throws -> StaffRecord
    {
        try await Self.add(
            email: email, role: role, password: password, by: actor, database: database, hasher: passwords.hasher,
            now: clock.now())
    }

    /// Adds a member of staff without a running store (`store staff add`): the same checks, the
    /// same audit line.
    package static func add(
        email: String, role: StaffRole, password: String, by actor: AuditActor, database: StoreDatabase,
        hasher: PasswordHasher, now: Date
    ) async throws -> StaffRecord {
        // At most 254 characters as sent; white space around an address (a pasted line's end) is
        // not part of it.
        guard email.unicodeScalars.count <= Login.maximumEmailLength else { throw StaffInputError.invalidEmail }
        let email = CustomerRepository.normalizedEmail(email)
        guard Login.couldBeAnEmail(email), looksLikeAnEmail(email), !CardNumberDetector.containsCardNumber(email)
        else { throw StaffInputError.invalidEmail }
        // Counted in Unicode scalars, as JSON Schema's minLength counts.
        guard password.unicodeScalars.count >= minimumPasswordLength else {
            throw StaffInputError.passwordTooShort
        }
        let hash = try await hasher.hashOffThePool(password)
        return try await database.staff.add(email: email, passwordHash: hash, role: role, by: actor, now: now)
    }

    /// Signs a member of staff in: a new session's token, and who it is.
    ///
    /// - Throws: ``LoginError/invalidEmail``, ``LoginError/invalidCredentials`` for a wrong password
    ///   or an unknown email alike, ``LoginError/throttled(retryAfter:)``.
    package func signIn(
        email: String, password: String, address: String?
    ) async throws -> (
        token: SecretToken, staff: StaffRecord
    ) {
        // A removed member's password no longer opens anything: checked against the decoy, as for
        // an unknown email, so the answer and its cost are the same.
        let (staff, opened) = try await passwords.check(email: email, password: password, address: address) {
            try await database.staff.staff(email: $0).map { ($0, $0.isActive ? $0.passwordHash : nil) }
        }
        let now = clock.now()
        guard let staff, opened else {
            try await database.audit.record(
                .staffSignInFailed, subject: staff.map { "staff:\($0.id)" } ?? "sign-in",
                by: staff?.actor ?? .unknownAccount, at: now)
            throw LoginError.invalidCredentials
        }
        let token = SecretToken.generate()
        try await database.staff.createSession(
            tokenHash: token.hash, staff: staff.id, now: now, expiresAt: now.addingTimeInterval(Self.sessionLimit))
        try await database.audit.record(.staffSignedIn, subject: "staff:\(staff.id)", by: staff.actor, at: now)
        return (token, staff)
    }

    /// Every member of staff, removed ones too, in the order they were added.
    package func members() async throws -> [StaffRecord] {
        try await database.staff.all()
    }

    /// Removes member `id`, by `remover` (docs/BEHAVIOUR.md §13.13): kept for the audit log, signed
    /// out everywhere at once, unable to sign in again. Removing a removed member changes nothing.
    ///
    /// - Throws: `StaffRemovalError.notFound`, `StaffChangeError.lastOwner` when they are the last
    ///   owner, `StaffRemovalError.removerNotStaff` when `remover` was removed meanwhile.
    package func remove(_ id: StaffID, by remover: StaffRecord) async throws -> StaffRecord {
        try await database.staff.remove(id, by: remover.actor, now: clock.now())
    }

    /// The member of staff whose session `token` is, while it stands (each use renews its idle
    /// time); `nil` otherwise.
    package func staff(for token: SecretToken) async throws -> StaffRecord? {
        try await database.staff.session(tokenHash: token.hash, now: clock.now(), idleLimit: Self.idleLimit)?.staff
    }

    /// Ends the session of `token`.
    package func end(_ token: SecretToken) async throws {
        try await database.staff.endSession(tokenHash: token.hash)
    }

    /// `text` has one `@` with something on each side and no white space: enough to refuse what
    /// cannot be an address, leaving the rest to the mail system.
    static func looksLikeAnEmail(_ text: String) -> Bool {
        // Split on the scalar: a combining mark or emoji modifier after `@` makes one Character of
        // them (`@🏻`), which would hide the `@` from a split by Character.
        let parts = text.unicodeScalars.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && !text.unicodeScalars.contains { $0.properties.isWhitespace }
    }
}
