import CheckoutKit
import Foundation
import StoreDatabase
import StoreSQL
import StoreTestSupport
import Testing

/// Staff, their sessions and the audit log (docs/BEHAVIOUR.md §13) on both backends.
@Suite("Staff and the audit log") struct StaffAndAuditTests {
    @Test(
        "adding staff writes its audit line in the same transaction; a taken email adds neither",
        arguments: Backend.allCases)
    func addingStaff(backend: Backend) async throws {
        try await withStoreDatabase(backend, seeded: false) { database in
            let owner = try await database.staff.add(
                email: " Owner@Shop.test ", passwordHash: "h", role: .owner, by: .commandLine, now: testNow)
            #expect(owner.email == "owner@shop.test")
            #expect(owner.role == .owner)
            let clerk = try await database.staff.add(
                email: "clerk@shop.test", passwordHash: "h", role: .orders, by: owner.actor, now: testNow)
            await #expect(throws: StaffChangeError.emailTaken) {
                try await database.staff.add(
                    email: "CLERK@shop.test", passwordHash: "h", role: .catalog, by: owner.actor, now: testNow)
            }
            #expect(try await database.staff.all().map(\.email) == ["owner@shop.test", "clerk@shop.test"])
            let log = try await database.audit.entries()
            #expect(log.map(\.action) == ["staff.added", "staff.added"])
            #expect(log[0].subject == "staff:\(clerk.id)" && log[0].actor == "owner@shop.test")
            #expect(log[0].staffID == owner.id && log[0].after == "clerk@shop.test (orders)")
            #expect(log[1].actor == "command line" && log[1].staffID == nil)
            #expect(try await database.audit.entries(of: owner.id).count == 1)
        }
    }

    @Test("the database refuses to change or remove a line of the audit log", arguments: Backend.allCases)
    func appendOnly(backend: Backend) async throws {
        try await withStoreDatabase(backend, seeded: false) { database in
            try await database.audit.record(.staffSignedIn, subject: "staff:1", by: .unknownAccount, at: testNow)
            for statement in [
                "UPDATE audit_log SET actor = 'someone else'", "DELETE FROM audit_log",
            ] {
                await #expect(throws: DatabaseError.self, "\(statement)") {
                    try await database.sql.write { try $0.executeScript(statement) }
                }
            }
            if database.sql.dialect == .postgres {
                await #expect(throws: DatabaseError.self) {
                    try await database.sql.write { try $0.executeScript("TRUNCATE audit_log") }
                }
            }
            #expect(try await database.audit.entries().map(\.actor) == ["unknown account"])
        }
    }

    @Test("a change that rolls back leaves no audit line", arguments: Backend.allCases)
    func auditRollsBackWithItsChange(backend: Backend) async throws {
        try await withStoreDatabase(backend, seeded: false) { database in
            await #expect(throws: DatabaseError.self) {
                try await database.sql.write { connection in
                    try AuditRepository.record(
                        .productChanged, subject: "product:1", by: .commandLine, at: testNow, on: connection)
                    try connection.executeScript("INSERT INTO staff (email) VALUES ('no role, no hash')")
                }
            }
            let entries = try await database.audit.entries()
            #expect(entries.isEmpty)
        }
    }

    @Test("a staff session ends when idle too long or past its absolute end", arguments: Backend.allCases)
    func sessionExpiry(backend: Backend) async throws {
        try await withStoreDatabase(backend, seeded: false) { database in
            let staff = try await database.staff.add(
                email: "owner@shop.test", passwordHash: "h", role: .owner, by: .commandLine, now: testNow)
            let idle: TimeInterval = 30 * 60
            let token: [UInt8] = Array(repeating: 7, count: 32)
            try await database.staff.createSession(
                tokenHash: token, staff: staff.id, now: testNow, expiresAt: testNow.addingTimeInterval(8 * 3_600))
            // Used every 20 minutes, it stays up to its absolute end.
            var now = testNow
            for _ in 0..<23 {
                now = now.addingTimeInterval(20 * 60)
                #expect(try await database.staff.session(tokenHash: token, now: now, idleLimit: idle)?.staff == staff)
            }
            now = testNow.addingTimeInterval(8 * 3_600)
            #expect(try await database.staff.session(tokenHash: token, now: now, idleLimit: idle) == nil)

            let other: [UInt8] = Array(repeating: 9, count: 32)
            try await database.staff.createSession(
                tokenHash: other, staff: staff.id, now: testNow, expiresAt: testNow.addingTimeInterval(8 * 3_600))
            #expect(
                try await database.staff.session(
                    tokenHash: other, now: testNow.addingTimeInterval(idle), idleLimit: idle) == nil)
            // An ended session stays ended.
            #expect(try await database.staff.session(tokenHash: other, now: testNow, idleLimit: idle) == nil)
        }
    }
}
