import CheckoutKit
import Foundation
import StoreAPI
import StoreDatabase
import StoreSQL
import StoreServerTestSupport
import StoreTestSupport
import Testing

/// Refunds and cancellations interleaved with checkouts while the server is killed with SIGKILL at
/// random moments and restarted (docs/BEHAVIOUR.md §14, docs/RELIABILITY.md).
///
/// Each worker pays an order (a quarter of them with `tok_refundTimeout`, whose refunds lose their
/// answer; some with `tok_refundFail`, whose refunds are refused), then refunds it one way or
/// another — every unit, one unit, a goodwill amount, **Cancel order** — sometimes twice at once
/// under two keys, as two members of staff would. A client retries each request with its key
/// until it has a definite answer. At the end, after one clean start that reconciles: for every
/// order the refunds that succeeded are at most what was charged and are what the order counts;
/// every refund the provider made is one succeeded refund of the store's and the other way round,
/// amount for amount; nothing is pending; every product's stock is the sum of its ledger; every
/// restocked unit has one `returned` ledger line; on SQLite both files pass `integrity_check`. It
/// runs on SQLite and on PostgreSQL.
///
/// `make test` runs a short version; `make chaos` runs more (`STORE_CHAOS_REFUND_ORDERS`).
@Suite("Chaos: kill -9 during refunds", .serialized) struct RefundChaosTests {
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var orders = 0
        private(set) var claimed = 0
        private(set) var outcomes: [Int: Int] = [:]
        private(set) var retries = 0
        /// Answers 503: the provider's answer lost (or the server dying mid-request).
        private(set) var unavailable = 0
        private(set) var kills = 0

        func record(_ body: (Tally) -> Void) { lock.withLock { body(self) } }
        func order() { record { $0.orders += 1 } }
        /// Whether another order may be started: `true` `limit` times in all.
        func claim(upTo limit: Int) -> Bool {
            lock.withLock {
                guard claimed < limit else { return false }
                claimed += 1
                return true
            }
        }
        func outcome(_ status: Int) { record { $0.outcomes[status, default: 0] += 1 } }
        func retry(unavailable: Bool) {
            record {
                $0.retries += 1
                if unavailable { $0.unavailable += 1 }
            }
        }
        func kill() { record { $0.kills += 1 } }
    }

    /// One client request's answer: the status (0 for a transport error or timeout) and the body.
    typealias Answer = (status: Int, body: Data)

    /// On SQLite the store and the provider's ledger are two files; on PostgreSQL both live in one
    /// fresh schema, and the server's connections die with it.
    @Test(arguments: Backend.allCases)
    func refundsSurviveKillMinusNine(backend: Backend) async throws {
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "store-refund-chaos-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("store.sqlite").path
            try await Self.run(backend: backend, database: "sqlite:\(path)", ledger: "sqlite:\(path).sandbox-provider")
        case .postgres:
            guard let base = TestPostgres.required() else { return }
            try await TestPostgres.withFreshSchema(base, prefix: "refund_chaos") { url in
                try await Self.run(backend: backend, database: url, ledger: url)
            }
        }
    }

    static func run(backend: Backend, database databaseURL: String, ledger ledgerURL: String) async throws {
        let orders = Int(ProcessInfo.processInfo.environment["STORE_CHAOS_REFUND_ORDERS"] ?? "") ?? 150
        let workers = min(16, orders)

        // Enough stock for every order, counted through the ledger so that stock = Σ ledger holds.
        let setup = try await StoreDatabase.open(url: databaseURL, hasher: .minimal)
        _ = try await setup.sql.write { connection in
            try connection.execute(
                """
                INSERT INTO stock_movements (product_id, change_units, reason, note, actor, stock_after, at)
                SELECT id, 1000000 - stock, 'counted', 'chaos', 'test', 1000000, 0 FROM products WHERE stock <> 1000000
                """)
            try connection.execute("UPDATE products SET stock = 1000000")
        }
        await setup.close()

        let port = try ChaosTests.freePort()
        let server = ChaosTests.ServerProcess(port: port, database: databaseURL)
        try await server.start()
        guard let base = URL(string: "http://127.0.0.1:\(port)") else { throw TestError("bad URL") }
        let tally = Tally()

        @Sendable func send(
            _ method: String, _ path: String, token: String?, json: String?, key: String?
        ) async -> Answer {
            await ChaosTests.send(base, method, path, token: token, key: key, json: json)
        }

        /// Sends until the answer is definite: a transport error, 503 or a request still in
        /// progress is retried, with the same key.
        @Sendable func definite(
            _ method: String, _ path: String, token: String?, json: String?, key: String?
        )
            async throws -> Answer
        {
            while true {
                let answer = await send(method, path, token: token, json: json, key: key)
                let type = try? StoreJSON.makeDecoder().decode(ErrorBody.self, from: answer.body).error.type
                let transient =
                    answer.status == 0 || answer.status == 503 || answer.status == 429
                    || type == "idempotency_in_progress" || type == "payment_in_progress"
                if !transient { return answer }
                tally.retry(unavailable: answer.status == 503)
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        var owner: String?
        while owner == nil {
            let answer = try await definite(
                "POST", "/api/admin/sessions", token: nil,
                json: #"{"email":"owner@onlinestore.test","password":"owner-demo-password"}"#, key: nil)
            if answer.status == 201 {
                owner = try JSONDecoder().decode(StaffSessionResponse.self, from: answer.body).token
            }
        }
        guard let owner else { throw TestError("no staff session") }

        let done = ManagedFlag()
        let killer = Task {
            var generator = SystemRandomNumberGenerator()
            var pause = 20...200
            while !done.isSet {
                try await Task.sleep(for: .milliseconds(Int.random(in: pause, using: &generator)))
                pause = 300...1_200
                if done.isSet { break }
                try await server.kill9()
                tally.kill()
                try await server.start()
            }
        }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var generator = SystemRandomNumberGenerator()
                    var round = 0
                    while tally.claim(upTo: orders) {
                        round += 1
                        // A shopper pays for 2 or 3 units of one product, with one key until paid.
                        let created = try await definite("POST", "/api/sessions", token: nil, json: nil, key: nil)
                        guard created.status == 201 else { throw TestError("no session: \(created.status)") }
                        let token = try JSONDecoder().decode(SessionResponse.self, from: created.body).token
                        let product = Int.random(in: 1...20, using: &generator)
                        let units = Int.random(in: 2...3, using: &generator)
                        let set = try await definite(
                            "PUT", "/api/basket/items/\(product)", token: token, json: #"{"quantity":\#(units)}"#,
                            key: nil)
                        guard set.status == 200 else { throw TestError("basket: \(set.status)") }
                        let basket = try StoreJSON.makeDecoder().decode(BasketBody.self, from: set.body)
                        let card =
                            switch Int.random(in: 0..<8, using: &generator) {
                            case 0, 1: "tok_refundTimeout"
                            case 2: "tok_refundFail"
                            default: "tok_visa"
                            }
                        let paid = try await definite(
                            "POST", "/api/checkout", token: token,
                            json:
                                #"{"payment_method":{"type":"card","token":"\#(card)"},"expected_total":{"amount":"\#(basket.total.amountText)","currency":"EUR"}}"#,
                            key: "chaos-\(worker)-\(round)")
                        guard paid.status == 201 else { throw TestError("checkout: \(paid.status)") }
                        let order = try StoreJSON.makeDecoder().decode(OrderBody.self, from: paid.body)
                        tally.order()

                        // Then a member of staff (or two at once) gives money back.
                        let action = Int.random(in: 0..<5, using: &generator)
                        let (path, body): (String, String) =
                            switch action {
                            case 0:
                                (
                                    "/api/admin/orders/\(order.id)/refunds",
                                    #"{"lines":[{"position":0,"quantity":\#(units)}],"shipping":\#(order.shipping.isPositive),"reason":"returned"}"#
                                )
                            case 1:
                                (
                                    "/api/admin/orders/\(order.id)/refunds",
                                    #"{"lines":[{"position":0,"quantity":1,"restock":\#(Bool.random(using: &generator))}],"reason":"damaged"}"#
                                )
                            case 2:
                                (
                                    "/api/admin/orders/\(order.id)/refunds",
                                    #"{"amount":{"amount":"1.00","currency":"EUR"},"reason":"goodwill"}"#
                                )
                            default:
                                ("/api/admin/orders/\(order.id)/cancel", #"{"note":"chaos"}"#)
                            }
                        let twice = Bool.random(using: &generator)
                        let keyBase = "refund-\(worker)-\(round)"
                        try await withThrowingTaskGroup(of: Void.self) { staff in
                            for person in 0..<(twice ? 2 : 1) {
                                staff.addTask {
                                    let answer = try await definite(
                                        "POST", path, token: owner, json: body, key: "\(keyBase)-\(person)")
                                    tally.outcome(answer.status)
                                }
                            }
                            try await staff.waitForAll()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        done.set()
        try await killer.value
        try await server.terminate()

        // One last clean start settles anything still pending, then the books are checked.
        try await server.start()
        try await server.terminate()

        let store = try await StoreDatabase.openUnmigrated(url: databaseURL)
        let ledger = try await StoreDatabase.openUnmigrated(url: ledgerURL)
        let (pending, overRefunded, miscounted) = try await store.sql.read { connection in
            (
                try connection.queryFirst("SELECT COUNT(*) AS n FROM refunds WHERE state = 'pending'")?.decode(
                    "n", as: Int.self),
                try connection.queryFirst(
                    """
                    SELECT COUNT(*) AS n FROM orders o WHERE o.refunded_minor > o.total_minor
                       OR o.refunded_minor <> (SELECT COALESCE(SUM(amount_minor), 0) FROM refunds r
                                               WHERE r.order_id = o.id AND r.state = 'succeeded')
                    """)?.decode("n", as: Int.self),
                try connection.queryFirst(
                    "SELECT COUNT(*) AS n FROM orders WHERE refund_held_minor <> refunded_minor")?.decode(
                        "n", as: Int.self)
            )
        }
        let storeRefunds = try await store.sql.read { connection in
            try connection.query("SELECT id, amount_minor FROM refunds WHERE state = 'succeeded'").map {
                (try $0.decode("id", as: String.self), try $0.decode("amount_minor", as: Int64.self))
            }
        }
        let providerRefunds = try await ledger.sql.read { connection in
            try connection.query("SELECT key, amount_minor FROM sandbox_refunds WHERE outcome = 'refunded'").map {
                (try $0.decode("key", as: String.self), try $0.decode("amount_minor", as: Int64.self))
            }
        }
        let (unbalanced, restockMismatch, states) = try await store.sql.read { connection in
            (
                try connection.queryFirst(
                    """
                    SELECT COUNT(*) AS n FROM products p
                    WHERE p.stock <> (SELECT COALESCE(SUM(m.change_units), 0) FROM stock_movements m WHERE m.product_id = p.id)
                    """)?.decode("n", as: Int.self),
                try connection.queryFirst(
                    """
                    SELECT COUNT(*) AS n FROM refund_lines l JOIN refunds r ON r.id = l.refund_id
                    WHERE (r.state = 'succeeded' AND l.restock = 1) <> EXISTS (
                        SELECT 1 FROM stock_movements m WHERE m.refund_id = r.id AND m.product_id = l.product_id
                          AND m.reason = 'returned' AND m.change_units = l.quantity)
                       OR (SELECT COUNT(*) FROM stock_movements m WHERE m.refund_id = r.id AND m.product_id = l.product_id) > 1
                    """)?.decode("n", as: Int.self),
                try connection.query("SELECT state, COUNT(*) AS n FROM refunds GROUP BY state ORDER BY state").map {
                    "\(try $0.decode("n", as: Int.self)) \(try $0.decode("state", as: String.self))"
                }
            )
        }
        // SQLite's files are checked page by page; PostgreSQL has no such check to ask for.
        let check: @Sendable (any SQLConnection) throws -> SQLValue? = { connection in
            connection.dialect == .sqlite
                ? try connection.queryFirst("PRAGMA integrity_check")?.values.first : .text("ok")
        }
        let integrity = try await store.sql.read(check)
        let ledgerIntegrity = try await ledger.sql.read(check)
        await store.close()
        await ledger.close()

        let storeBooks = Dictionary(uniqueKeysWithValues: storeRefunds.map { ($0.0, $0.1) })
        let providerBooks = Dictionary(providerRefunds.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        print(
            """
            refund chaos (\(backend)): \(tally.orders) orders, refund requests answered \(tally.outcomes.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", ")), \
            \(tally.kills) kill -9 and restarts, \(tally.retries) retries (\(tally.unavailable) after a 503); refunds \(states.joined(separator: ", ")); \
            \(providerRefunds.count) provider refunds, \(storeBooks == providerBooks ? "all" : "NOT all") matching the store's; \
            \(pending ?? -1) pending, \(overRefunded ?? -1) orders over-refunded or miscounted, \(unbalanced ?? -1) products off their ledger, \
            \(restockMismatch ?? -1) restock mismatches, integrity_check \(backend == .sqlite ? (integrity == .text("ok") && ledgerIntegrity == .text("ok") ? "ok" : "FAILED") : "not applicable")
            """)
        #expect(tally.orders >= orders)
        #expect(tally.kills >= 1)
        #expect(pending == 0, "no refund is left pending after reconciliation")
        #expect(overRefunded == 0, "refunds ≤ charged, and counted once")
        #expect(miscounted == 0, "nothing held once nothing is pending")
        #expect(storeBooks == providerBooks, "every provider refund is one succeeded refund of the store's")
        #expect(providerRefunds.count == storeBooks.count)
        #expect(unbalanced == 0, "every product's stock equals its ledger")
        #expect(restockMismatch == 0, "every restocked unit has exactly one returned line")
        #expect(integrity == .text("ok"))
        #expect(ledgerIntegrity == .text("ok"))
    }
}
