import Foundation
import PostgresDriver
import StoreSQL
import TestWaiting
import Testing

/// A session advisory lock held on a connection of its own: seen by others while held, gone the
/// moment its connection ends, taken again by ``PostgresSessionLock/verify()`` after a break.
@Suite(.enabled(if: PostgresTestEnvironment.isAvailable, PostgresTestEnvironment.skipReason))
struct PostgresSessionLockTests {
    static let lockClass: Int32 = 0x7465_7374  // "test"

    static func isHeld(_ objectID: Int32, on connection: PostgresConnection) throws -> Bool {
        let row = try connection.queryFirst(
            "SELECT \(PostgresSessionLock.isHeld(classID: lockClass, column: "\(objectID)")) AS held")
        return try row?.decode("held", as: Int64.self) == 1
    }

    @Test("held while its connection lives, free when it is closed; another holder gets another key")
    func heldUntilClosed() async throws {
        let url = try PostgresTestEnvironment.requiredURL()
        let observer = try PostgresConnection(url: url)
        let first = try await PostgresSessionLock.acquire(url: url, classID: Self.lockClass)
        let second = try await PostgresSessionLock.acquire(url: url, classID: Self.lockClass)
        #expect(first.objectID > 0)
        #expect(first.objectID != second.objectID)
        #expect(try Self.isHeld(first.objectID, on: observer))
        #expect(await first.verify())

        await first.close()
        // The server ends the closed session's backend, and the lock with it, within moments.
        #expect(try await eventually { try !Self.isHeld(first.objectID, on: observer) })
        #expect(try Self.isHeld(second.objectID, on: observer))
        // Free again: anyone may take it now.
        let taken = try observer.queryFirst(
            "SELECT pg_try_advisory_lock(\(Int64(Self.lockClass))::int4, \(Int64(first.objectID))::int4) AS taken")
        #expect(try taken?.decode("taken", as: Int64.self) == 1)
        await second.close()
    }

    @Test("a connection the server ended loses the lock; verify reconnects and takes it again")
    func verifyTakesTheLockAgainAfterABreak() async throws {
        let url = try PostgresTestEnvironment.requiredURL()
        let observer = try PostgresConnection(url: url)
        let lock = try await PostgresSessionLock.acquire(url: url, classID: Self.lockClass)
        let holder = try #require(
            try observer.queryFirst(
                """
                SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = \(Int64(Self.lockClass))
                  AND objid = \(Int64(lock.objectID)) AND objsubid = 2
                """)?.decode("pid", as: Int64.self))
        _ = try observer.query("SELECT pg_terminate_backend(\(holder))")
        #expect(try await eventually { try !Self.isHeld(lock.objectID, on: observer) })

        #expect(await lock.verify())
        #expect(try Self.isHeld(lock.objectID, on: observer))
        await lock.close()
        #expect(try await eventually { try !Self.isHeld(lock.objectID, on: observer) })
    }

    @Test("a lock lost while someone else held its key is taken again once the key is free")
    func verifyKeepsTryingWhileTheKeyIsHeldElsewhere() async throws {
        let url = try PostgresTestEnvironment.requiredURL()
        let observer = try PostgresConnection(url: url)
        let lock = try await PostgresSessionLock.acquire(url: url, classID: Self.lockClass)
        let key = "\(Int64(Self.lockClass))::int4, \(Int64(lock.objectID))::int4"
        let holder = try #require(
            try observer.queryFirst(
                """
                SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = \(Int64(Self.lockClass))
                  AND objid = \(Int64(lock.objectID)) AND objsubid = 2
                """)?.decode("pid", as: Int64.self))
        _ = try observer.query("SELECT pg_terminate_backend(\(holder))")
        // The observer takes the key the ended session let go: the lock's next check reconnects and
        // finds it held.
        #expect(
            try await eventually {
                try observer.queryFirst("SELECT pg_try_advisory_lock(\(unsafeSQL: key)) AS taken")?.decode(
                    "taken", as: Int64.self) == 1
            })
        #expect(await lock.verify() == false)
        #expect(await lock.verify() == false)
        _ = try observer.query("SELECT pg_advisory_unlock(\(unsafeSQL: key))")
        // Connected, not holding it: the check takes it again.
        #expect(await lock.verify())
        #expect(try Self.isHeld(lock.objectID, on: observer))
        await lock.close()
    }
}
