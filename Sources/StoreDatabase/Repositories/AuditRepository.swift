import CheckoutKit
import Foundation
import StoreSQL

/// Who did something in the back office, as the audit log names them.
public enum AuditActor: Hashable, Sendable {
    /// A member of staff, by id and by the email they had then.
    case staff(StaffID, email: String)
    /// `store` on the shop's own machine (`store staff add`, `store catalog import`).
    case commandLine
    /// The store filling a new database with its demo data.
    case demoData
    /// A sign-in for an email no member of staff has. What was typed is not kept: it could be
    /// anything (a password in the wrong field, a card number).
    case unknownAccount

    var staffID: StaffID? {
        if case .staff(let id, _) = self { return id }
        return nil
    }

    /// The actor as the log writes it.
    public var name: String {
        switch self {
        case .staff(_, let email): email
        case .commandLine: "command line"
        case .demoData: "demo data"
        case .unknownAccount: "unknown account"
        }
    }
}

/// One line of the audit log: who, what, when, and the values before and after.
public struct AuditEntry: Hashable, Sendable {
    public let id: Int64
    public let at: Date
    public let actor: String
    public let staffID: StaffID?
    /// What was done, as a stable code (an ``AuditAction``'s): `staff.added`, `product.changed`…
    /// Kept as text, as the log holds it.
    public let action: String
    /// What it was done to: `staff:3`, `product:12`, `order:ord_…`.
    public let subject: String
    public let before: String?
    public let after: String?
}

/// The audit log: written only in the transaction of the change it records (``record(_:…)`` takes
/// the connection of that transaction), never changed or removed — the database refuses an
/// `UPDATE` or `DELETE` of it.
public struct AuditRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// One line of the log: what was done, to what, and the values before and after.
    struct Line: Sendable {
        let action: AuditAction
        let subject: String
        let before: String?
        let after: String?

        init(action: AuditAction, subject: String, before: String? = nil, after: String? = nil) {
            self.action = action
            self.subject = subject
            self.before = before
            self.after = after
        }
    }

    /// Appends a line, on `connection`, inside the transaction of the change it records: a change
    /// that rolls back leaves no line.
    public static func record(
        _ action: AuditAction, subject: String, by actor: AuditActor, before: String? = nil, after: String? = nil,
        at: Date, on connection: any SQLConnection
    ) throws {
        try record(
            [Line(action: action, subject: subject, before: before, after: after)], by: actor, at: at,
            on: connection)
    }

    /// Appends `lines`, in order, by one actor at one time, in one statement (an import writes its
    /// lines in a few), inside the transaction of the changes they record.
    static func record(_ lines: [Line], by actor: AuditActor, at: Date, on connection: any SQLConnection) throws {
        guard !lines.isEmpty else { return }
        let rows = lines.map { line -> SQLQuery in
            """
            (\(at.unixMilliseconds), \(actor.staffID?.rawValue), \(actor.name), \(line.action.rawValue), \(line.subject),
             \(line.before), \(line.after))
            """
        }
        try connection.execute(
            """
            INSERT INTO audit_log (at, staff_id, actor, action, subject, before_value, after_value)
            VALUES \(SQLQuery.joined(rows, separator: ", "))
            """)
    }

    /// Appends a line in a transaction of its own, for an event that changes nothing else (a
    /// sign-in, a failed sign-in).
    public func record(
        _ action: AuditAction, subject: String, by actor: AuditActor, before: String? = nil, after: String? = nil,
        at: Date
    ) async throws {
        try await database.write { connection in
            try Self.record(action, subject: subject, by: actor, before: before, after: after, at: at, on: connection)
        }
    }

    /// The newest lines first, all of them or one member of staff's, at most `limit`, before the
    /// line `before` when paging.
    public func entries(of staff: StaffID? = nil, before: Int64? = nil, limit: Int = 100) async throws -> [AuditEntry] {
        try await database.read { connection in
            let rows: [SQLRow]
            switch (staff, before) {
            case (nil, nil):
                rows = try connection.query("SELECT \(Self.columns) FROM audit_log ORDER BY id DESC LIMIT \(limit)")
            case (nil, let before?):
                rows = try connection.query(
                    "SELECT \(Self.columns) FROM audit_log WHERE id < \(before) ORDER BY id DESC LIMIT \(limit)")
            case (let staff?, nil):
                rows = try connection.query(
                    """
                    SELECT \(Self.columns) FROM audit_log WHERE staff_id = \(staff.rawValue)
                    ORDER BY id DESC LIMIT \(limit)
                    """)
            case (let staff?, let before?):
                rows = try connection.query(
                    """
                    SELECT \(Self.columns) FROM audit_log WHERE staff_id = \(staff.rawValue) AND id < \(before)
                    ORDER BY id DESC LIMIT \(limit)
                    """)
            }
            return try rows.map(Self.read)
        }
    }

    static let columns: SQLQuery = "id, at, staff_id, actor, action, subject, before_value, after_value"

    static func read(_ row: SQLRow) throws -> AuditEntry {
        AuditEntry(
            id: try row.decode("id"), at: try row.date("at"),
            actor: try row.decode("actor"),
            staffID: try row.decode("staff_id", as: Int64?.self).map(StaffID.init(rawValue:)),
            action: try row.decode("action"), subject: try row.decode("subject"),
            before: try row.decode("before_value"), after: try row.decode("after_value"))
    }
}
