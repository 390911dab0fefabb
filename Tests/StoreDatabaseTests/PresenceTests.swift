import CheckoutKit
import Foundation
import StoreDatabase
import StoreSQL
import StoreTestSupport
import TestWaiting
import Testing

/// Several servers on one PostgreSQL: a pending attempt or refund carries its server's presence
/// key, and another server may take it over as soon as that presence is gone — not only when the
/// lease runs out (docs/BEHAVIOUR.md §15.6).
@Suite("Presence: taking over what a server that is gone held") struct PresenceTests {
    /// Two servers' views of one fresh schema, each with its own presence, and one without.
    static func withTwoServers(
        _ body: (_ first: StoreDatabase, _ second: StoreDatabase, _ bare: StoreDatabase) async throws -> Void
    ) async throws {
        guard let base = TestPostgres.required() else { return }
        try await TestPostgres.withFreshSchema(base, prefix: "presence") { url in
            let bare = try await StoreDatabase.open(url: url, hasher: .minimal, poolSize: 2)
            let first = try #require(try await ServerPresence.start(url: url))
            let second = try #require(try await ServerPresence.start(url: url))
            #expect(first.holder != second.holder)
            func closeAll() async {
                await first.close()
                await second.close()
                await bare.close()
            }
            do {
                try await body(bare.present(first), bare.present(second), bare)
            } catch {
                await closeAll()
                throw error
            }
            await closeAll()
        }
    }

    @Test("a checkout held by a server that is gone is taken over at once; one still present keeps it")
    func attemptTakenOverWhenItsServerIsGone() async throws {
        try await Self.withTwoServers { first, second, bare in
            let shopper = try await makeShopper(first, lines: [(1, 1)])
            let attempt = try await makeAttempt(first, shopper: shopper)
            guard case .reserved(let record) = try await first.payments.reserve(attempt, now: testNow) else {
                throw TestFailure("expected a new reservation")
            }
            #expect(record.holder == first.presence?.holder)
            #expect(try await first.payments.attempt(id: attempt.id)?.holder == first.presence?.holder)

            // Its server is present and the lease runs: nobody else may take it, nor list it.
            for other in [second, bare] {
                #expect(
                    try await !other.payments.claim(
                        attempt.id, leaseExpiresAt: testNow.addingTimeInterval(15), now: testNow, call: .random()))
                #expect(try await other.payments.unresolvedAttempts(now: testNow).isEmpty)
            }

            // Its server is gone (its connection closed, as at kill -9): taken over at once, by one.
            await first.presence?.close()
            #expect(
                try await eventually(timeout: .seconds(2)) {
                    try await second.payments.unresolvedAttempts(now: testNow).map(\.id) == [attempt.id]
                })
            #expect(
                try await second.payments.claim(
                    attempt.id, leaseExpiresAt: testNow.addingTimeInterval(15), now: testNow, call: .random()))
            let taken = try #require(try await second.payments.attempt(id: attempt.id))
            #expect(taken.holder == second.presence?.holder)
            #expect(taken.mayHaveCharged, "the first server's call was in flight when it went")
            #expect(
                try await !bare.payments.claim(
                    attempt.id, leaseExpiresAt: testNow.addingTimeInterval(15), now: testNow, call: .random()),
                "the new holder is present")
            #expect(try await bare.payments.unresolvedAttempts(now: testNow).isEmpty)
        }
    }

    @Test("a refund held by a server that is gone is taken over at once")
    func refundTakenOverWhenItsServerIsGone() async throws {
        try await Self.withTwoServers { first, second, _ in
            let shopper = try await makeShopper(first, lines: [(1, 2)])
            let order = try await placeOrder(first, try await makeAttempt(first, shopper: shopper))
            let new = NewRefund(
                id: .random(), orderID: order.id, key: try #require(IdempotencyKey(rawValue: "refund-1")),
                fingerprint: "fp", selection: .goodwill(eur(1_00)),
                reason: try #require(RefundReason(kind: .goodwill, note: nil)), actor: .commandLine,
                leaseExpiresAt: testNow.addingTimeInterval(15))
            guard case .reserved(let record) = try await first.refunds.reserve(new, now: testNow) else {
                throw TestFailure("expected a new refund")
            }
            #expect(record.holder == first.presence?.holder)
            #expect(try await !second.refunds.claim(new.id, leaseExpiresAt: testNow, now: testNow))
            #expect(try await second.refunds.unresolved(now: testNow, limit: 10).isEmpty)

            await first.presence?.close()
            #expect(
                try await eventually(timeout: .seconds(2)) {
                    try await second.refunds.unresolved(now: testNow, limit: 10).map(\.refund.id) == [new.id]
                })
            #expect(
                try await second.refunds.claim(new.id, leaseExpiresAt: testNow.addingTimeInterval(15), now: testNow))
            #expect(try await second.refunds.refund(id: new.id)?.holder == second.presence?.holder)
            #expect(try await !first.refunds.claim(new.id, leaseExpiresAt: testNow, now: testNow))
        }
    }

    /// `isHeld` says what the last check found (`store_presence_held` in `/metrics`): lost while
    /// another session holds its key after its connection broke, held again once it is free.
    @Test("a presence whose lock is lost says so until it has it again")
    func aLostPresenceSaysSo() async throws {
        guard let base = TestPostgres.required() else { return }
        try await TestPostgres.withFreshSchema(base, prefix: "presence") { url in
            let observer = try await StoreDatabase.open(url: url, hasher: .minimal, poolSize: 1)
            // Checked only when asked here: the periodic check would race the observer for the key.
            let presence = try #require(try await ServerPresence.start(url: url, checkEvery: .seconds(3_600)))
            let key = "\(ServerPresence.lockClass)::int4, \(presence.holder)::int4"
            #expect(presence.isHeld)
            try await observer.sql.write { connection in
                let pid = try #require(
                    try connection.queryFirst(
                        """
                        SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
                          AND classid = \(Int64(ServerPresence.lockClass)) AND objid = \(presence.holder) AND objsubid = 2
                        """)?.decode("pid", as: Int64.self))
                _ = try connection.query("SELECT pg_terminate_backend(\(pid)::int4)")
            }
            // The observer's one connection takes the key as soon as the ended session let it go.
            #expect(
                try await eventually {
                    try await observer.sql.write { connection in
                        try connection.queryFirst("SELECT pg_try_advisory_lock(\(unsafeSQL: key)) AS taken")?.decode(
                            "taken", as: Bool.self) ?? false
                    }
                })
            #expect(await presence.verify() == false)
            #expect(!presence.isHeld)
            try await observer.sql.write { connection in
                _ = try connection.query("SELECT pg_advisory_unlock(\(unsafeSQL: key))")
            }
            #expect(await presence.verify())
            #expect(presence.isHeld)
            await presence.close()
            await observer.close()
        }
    }

    @Test("SQLite has no presence: the lease alone decides", arguments: [Backend.sqlite])
    func sqliteHasNoPresence(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            #expect(try await ServerPresence.start(url: "sqlite:/tmp/unused.sqlite") == nil)
            let shopper = try await makeShopper(database, lines: [(1, 1)])
            let attempt = try await makeAttempt(database, shopper: shopper)
            guard case .reserved(let record) = try await database.payments.reserve(attempt, now: testNow) else {
                throw TestFailure("expected a new reservation")
            }
            #expect(record.holder == nil)
            #expect(
                try await !database.payments.claim(
                    attempt.id, leaseExpiresAt: testNow.addingTimeInterval(15), now: testNow, call: nil))
        }
    }
}
