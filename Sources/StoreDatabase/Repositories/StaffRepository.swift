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
    /// When they were removed; `nil` while they are staff. A removed member keeps their row (the
    /// audit log names them by it) but cannot sign in, and their sessions are gone.
    public let removedAt: Date?

    /// Whether they are staff now (not removed).
    public var isActive: Bool { removedAt == nil }

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

/// Why a member of staff could not be removed as asked; nothing was changed.
public enum StaffRemovalError: Error, Hashable, Sendable {
    /// There is no member of staff with that id.
    case notFound
    /// The member of staff asking was removed meanwhile: they may change nothing any more.
    case removerNotStaff
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
                    .staffAdded, subject: "staff:\(staff.id)", by: actor, after: "\(email) (\(role.rawValue))",
                    at: now,
                    on: connection)
                return staff
            }
        } catch let error as DatabaseError where error.kind == .uniqueViolation {
            throw StaffChangeError.emailTaken
        }
    }

    /// The member of staff with `email` (trimmed, lower-cased), if any — removed ones too.
    public func staff(email: String) async throws -> StaffRecord? {
        let email = CustomerRepository.normalizedEmail(email)
        return try await database.lookup { connection in
            try connection.queryFirst("SELECT \(Self.columns) FROM staff WHERE email = \(email)").map(Self.read)
        }
    }

    /// Every member of staff, removed ones too, in the order they were added.
    public func all() async throws -> [StaffRecord] {
        try await database.read { connection in
            try connection.query("SELECT \(Self.columns) FROM staff ORDER BY id").map(Self.read)
        }
    }

    /// The member of staff `id`, removed or not.
    public func staff(id: StaffID) async throws -> StaffRecord? {
        try await database.lookup { connection in
            try connection.queryFirst("SELECT \(Self.columns) FROM staff WHERE id = \(id.rawValue)").map(Self.read)
        }
    }

    /// Removes member `id`, by `actor`: their row stays (marked removed) for the audit log, their
    /// sessions end, and they can no longer sign in. Removing a removed member changes nothing and
    /// writes no audit line. The last active owner cannot be removed: the active owners are locked
    /// first (on PostgreSQL, in id order; SQLite has one writer), so two owners removing each other
    /// at once leave one.
    ///
    /// - Throws: ``StaffRemovalError/notFound``, ``StaffChangeError/lastOwner``,
    ///   ``StaffRemovalError/removerNotStaff`` when `actor` was removed meanwhile.
    public func remove(_ id: StaffID, by actor: AuditActor, now: Date) async throws -> StaffRecord {
        try await database.write { connection in
            let lock: SQLQuery = connection.dialect == .postgres ? " FOR UPDATE" : ""
            let owners = try connection.query(
                "SELECT id FROM staff WHERE role = 'owner' AND removed_at IS NULL ORDER BY id\(lock)"
            ).map { StaffID(rawValue: try $0.decode("id")) }
            if let remover = actor.staffID {
                // Read after the owners' locks: a removal that committed meanwhile is seen.
                let active = try connection.queryFirst(
                    "SELECT id FROM staff WHERE id = \(remover.rawValue) AND removed_at IS NULL")
                guard active != nil else { throw StaffRemovalError.removerNotStaff }
            }
            guard
                let member = try connection.queryFirst(
                    "SELECT \(Self.columns) FROM staff WHERE id = \(id.rawValue)\(lock)"
                ).map(Self.read)
            else { throw StaffRemovalError.notFound }
            guard member.isActive else { return member }
            if member.role == .owner, !owners.contains(where: { $0 != id }) { throw StaffChangeError.lastOwner }
            guard
                let row = try connection.queryFirst(
                    """
                    UPDATE staff SET removed_at = \(now.unixMilliseconds) WHERE id = \(id.rawValue)
                    RETURNING \(Self.columns)
                    """)
            else { throw StaffRemovalError.notFound }
            try connection.execute("DELETE FROM staff_sessions WHERE staff_id = \(id.rawValue)")
            try AuditRepository.record(
                .staffRemoved, subject: "staff:\(id)", by: actor, before: "\(member.email) (\(member.role.rawValue))",
                at: now, on: connection)
            return try Self.read(row)
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
            // A removed member's sessions are ended with the removal; this refuses one all the same.
            guard
                let staff = try connection.queryFirst(
                    "SELECT \(Self.columns) FROM staff WHERE id = \(id) AND removed_at IS NULL")
            else {
                try connection.execute("DELETE FROM staff_sessions WHERE token_hash = \(tokenHash)")
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

    static let columns: SQLQuery = "id, email, password_hash, role, created_at, removed_at"

    static func read(_ row: SQLRow) throws -> StaffRecord {
        guard let role = StaffRole(rawValue: try row.decode("role")) else {
            throw DatabaseError.decoding(column: "role", expected: "owner, catalog or orders")
        }
        return StaffRecord(
            id: StaffID(rawValue: try row.decode("id")), email: try row.decode("email"),
            passwordHash: try row.decode("password_hash"), role: role, createdAt: try row.date("created_at"),
            removedAt: try row.optionalDate("removed_at"))
    }
}
