import CheckoutKit
import Foundation
import StoreSQL

/// A member of staff as stored. The password exists only as its Argon2id hash.
public struct StaffRecord: Hashable, Sendable {
    public let id: StaffID
    public let email: String
    public let passwordHash: String
    public let role: StaffRole
    public let createdAt: Date

    /// How the audit log names them.
    public var actor: AuditActor { .staff(id, email: email) }
}

/// A live staff session: whose, and until when it stands.
public struct StaffSessionRecord: Hashable, Sendable {
    public let staff: StaffRecord
    /// The session ends here, however busy (the absolute limit).
    public let expiresAt: Date
}

/// Why a member of staff cannot be added or changed as asked.
public enum StaffChangeError: Error, Hashable, Sendable {
    /// The email is another member of staff's.
    case emailTaken
    /// The change would leave the shop without an owner.
    case lastOwner
}

/// The people who run the shop and their sessions, each change written to the audit log in its
/// own transaction. Staff are never customers: their own table, their own sessions. Only the
/// SHA-256 of a session token is stored.
public struct StaffRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Adds a member of staff, by `actor`.
    ///
    /// - Throws: ``StaffChangeError/emailTaken``.
    public func add(
        email: String, passwordHash: String, role: StaffRole, by actor: AuditActor, now: Date
    ) async throws -> StaffRecord {
        let email = CustomerRepository.normalizedEmail(email)
        do {
            return try await database.write { connection in
                guard
                    let row = try connection.queryFirst(
                        """
                        INSERT INTO staff (email, password_hash, role, created_at)
                        VALUES (\(email), \(passwordHash), \(role.rawValue), \(now.unixMilliseconds))
                        RETURNING \(Self.columns)
                        """)
                else { throw DatabaseError(kind: .other, code: "staff", message: "inserted staff missing") }
                let staff = try Self.read(row)
                try AuditRepository.record(
                    "staff.added", subject: "staff:\(staff.id)", by: actor, after: "\(email) (\(role.rawValue))",
                    at: now,
                    on: connection)
                return staff
            }
        } catch let error as DatabaseError where error.kind == .uniqueViolation {
            throw StaffChangeError.emailTaken
        }
    }

    /// The member of staff with `email` (trimmed, lower-cased), if any.
    public func staff(email: String) async throws -> StaffRecord? {
        let email = CustomerRepository.normalizedEmail(email)
        return try await database.read { connection in
            try connection.queryFirst("SELECT \(Self.columns) FROM staff WHERE email = \(email)").map(Self.read)
        }
    }

    /// Every member of staff, in the order they were added.
    public func all() async throws -> [StaffRecord] {
        try await database.read { connection in
            try connection.query("SELECT \(Self.columns) FROM staff ORDER BY id").map(Self.read)
        }
    }

    /// Starts a session for `staff` that ends at `expiresAt` at the latest.
    public func createSession(tokenHash: [UInt8], staff: StaffID, now: Date, expiresAt: Date) async throws {
        try await database.write { connection in
            try connection.execute(
                """
                INSERT INTO staff_sessions (token_hash, staff_id, created_at, last_seen_at, expires_at)
                VALUES (\(tokenHash), \(staff.rawValue), \(now.unixMilliseconds), \(now.unixMilliseconds),
                        \(expiresAt.unixMilliseconds))
                """)
        }
    }

    /// The session of `tokenHash` if it stands at `now` — not past its absolute end, and used within
    /// `idleLimit` — marked as used now; `nil` otherwise (a session found ended is removed).
    public func session(tokenHash: [UInt8], now: Date, idleLimit: TimeInterval) async throws -> StaffSessionRecord? {
        let idleSince = now.addingTimeInterval(-idleLimit).unixMilliseconds
        return try await database.write { connection in
            guard
                let row = try connection.queryFirst(
                    """
                    UPDATE staff_sessions SET last_seen_at = \(now.unixMilliseconds)
                    WHERE token_hash = \(tokenHash) AND expires_at > \(now.unixMilliseconds)
                      AND last_seen_at > \(idleSince)
                    RETURNING staff_id, expires_at
                    """)
            else {
                try connection.execute("DELETE FROM staff_sessions WHERE token_hash = \(tokenHash)")
                return nil
            }
            let id: Int64 = try row.decode("staff_id")
            let expiresAt = try row.date("expires_at")
            guard let staff = try connection.queryFirst("SELECT \(Self.columns) FROM staff WHERE id = \(id)") else {
                return nil
            }
            return StaffSessionRecord(staff: try Self.read(staff), expiresAt: expiresAt)
        }
    }

    /// Ends the session of `tokenHash`.
    public func endSession(tokenHash: [UInt8]) async throws {
        try await database.write { connection in
            try connection.execute("DELETE FROM staff_sessions WHERE token_hash = \(tokenHash)")
        }
    }

    static let columns: SQLQuery = "id, email, password_hash, role, created_at"

    static func read(_ row: SQLRow) throws -> StaffRecord {
        guard let role = StaffRole(rawValue: try row.decode("role")) else {
            throw DatabaseError.decoding(column: "role", expected: "owner, catalog or orders")
        }
        return StaffRecord(
            id: StaffID(rawValue: try row.decode("id")), email: try row.decode("email"),
            passwordHash: try row.decode("password_hash"), role: role, createdAt: try row.date("created_at"))
    }
}
