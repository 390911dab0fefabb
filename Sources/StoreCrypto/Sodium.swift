import CSodium

/// Makes sure libsodium is initialized before any of its functions is used.
///
/// `sodium_init()` is safe to call from several threads and more than once; it returns -1 only
/// when the library cannot work at all (no random source), which no caller could recover from.
enum Sodium {
    static let isReady: Bool = sodium_init() >= 0

    static func ensureReady() throws(CryptoError) {
        guard isReady else { throw .libraryUnavailable }
    }
}

/// A failure of the cryptographic library.
public enum CryptoError: Error, Hashable, Sendable {
    /// libsodium could not be initialized.
    case libraryUnavailable
    /// Hashing a password failed (libsodium could not get the memory Argon2id needs).
    case outOfMemory
    /// The password is longer than ``PasswordHasher/maximumPasswordBytes``.
    case passwordTooLong
}
