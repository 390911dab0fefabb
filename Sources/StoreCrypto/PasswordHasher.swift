import CSodium
import Dispatch

/// Salted, memory-hard password hashes (Argon2id through libsodium's `crypto_pwhash_str_alg`).
///
/// A hash is a self-describing ASCII string (`$argon2id$v=19$m=…,t=…,p=1$salt$hash`) that carries
/// its own salt and cost, so it can be verified later even if the cost settings change. The
/// password itself is never stored or logged.
public struct PasswordHasher: Sendable {
    /// Longer passwords are refused before hashing, so nobody can make the server hash megabytes.
    public static let maximumPasswordBytes = 1_024

    /// Argon2id passes.
    public let operationsLimit: Int
    /// Argon2id memory in bytes.
    public let memoryLimit: Int

    /// libsodium's "interactive" cost: about 64 MiB and 2 passes, suited to logins.
    public static let interactive = PasswordHasher(
        operationsLimit: Int(crypto_pwhash_opslimit_interactive()),
        memoryLimit: Int(crypto_pwhash_memlimit_interactive()))

    /// The lowest cost libsodium accepts — for tests that hash many passwords, never for the store.
    public static let minimal = PasswordHasher(
        operationsLimit: Int(crypto_pwhash_opslimit_min()), memoryLimit: Int(crypto_pwhash_memlimit_min()))

    public init(operationsLimit: Int, memoryLimit: Int) {
        self.operationsLimit = operationsLimit
        self.memoryLimit = memoryLimit
    }

    /// A new salted Argon2id hash of `password`.
    public func hash(_ password: String) throws(CryptoError) -> String {
        try Sodium.ensureReady()
        let length = password.utf8.count
        guard length <= PasswordHasher.maximumPasswordBytes else { throw .passwordTooLong }
        // A NUL-terminated copy always has a valid address, even for an empty password; the length
        // passed excludes the terminator, so passwords containing NUL are hashed whole.
        let characters = Array(password.utf8CString)
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_strbytes()))
        let status = crypto_pwhash_str_alg(
            &output, characters, UInt64(length), UInt64(operationsLimit), memoryLimit, crypto_pwhash_alg_argon2id13())
        guard status == 0 else { throw .outOfMemory }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` matches `storedHash`. A malformed hash or an over-long password simply
    /// does not match.
    public func verify(_ password: String, against storedHash: String) -> Bool {
        guard Sodium.isReady else { return false }
        let length = password.utf8.count
        var hash = Array(storedHash.utf8CString)
        let capacity = Int(crypto_pwhash_strbytes())
        guard length <= PasswordHasher.maximumPasswordBytes, hash.count <= capacity else { return false }
        hash += [CChar](repeating: 0, count: capacity - hash.count)
        let characters = Array(password.utf8CString)
        return crypto_pwhash_str_verify(&hash, characters, UInt64(length)) == 0
    }

    /// Whether `storedHash` was made with other settings than this hasher's (then hash again after
    /// a successful login).
    public func needsRehash(_ storedHash: String) -> Bool {
        guard Sodium.isReady else { return false }
        var hash = Array(storedHash.utf8CString)
        let capacity = Int(crypto_pwhash_strbytes())
        guard hash.count <= capacity else { return true }
        hash += [CChar](repeating: 0, count: capacity - hash.count)
        return crypto_pwhash_str_needs_rehash(&hash, UInt64(operationsLimit), memoryLimit) != 0
    }
}

extension PasswordHasher {
    /// ``hash(_:)`` on a Dispatch thread. Argon2id is memory-hard work of tens of milliseconds: run
    /// on the Swift concurrency pool, whose few threads serve every request, it would hold one of
    /// them that long.
    public func hashOffThePool(_ password: String) async throws(CryptoError) -> String {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<String, CryptoError>, Never>) in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Result { () throws(CryptoError) in try hash(password) })
            }
        }
        return try result.get()
    }

    /// ``verify(_:against:)`` on a Dispatch thread, for the same reason as ``hashOffThePool(_:)``.
    public func verifyOffThePool(_ password: String, against storedHash: String) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: verify(password, against: storedHash))
            }
        }
    }
}
