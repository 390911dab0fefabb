import CheckoutKit
import Foundation
import StoreAPI
import StoreDatabase
import StoreSQL
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import Testing

/// Checkouts from concurrent shoppers while the server is killed with SIGKILL at random moments
/// and restarted. The clients are naive: after an error or a timeout they retry, one time in three
/// with a *new* key (a double tap, a resubmitted form, a retry that forgot its key), and one
/// checkout in five uses `tok_timeout` (charged, answer lost).
///
/// Each shopper buys each product at most once, one product per basket, so "a product bought twice
/// by one shopper" counts baskets paid twice. At the end: no basket paid twice, the orders equal the
/// provider's charges, no key has two orders, every order a client saw acknowledged exists, nothing
/// is pending, and both database files pass `integrity_check`.
///
/// `make test` runs a short version; `make chaos` runs ≥ 2,000 checkouts
/// (`STORE_CHAOS_CHECKOUTS`, `STORE_CHAOS_SHOPPERS`; at most 20 checkouts per shopper).
@Suite("Chaos: kill -9 during checkouts", .serialized) struct ChaosTests {
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var acknowledged: [String: String] = [:]  // idempotency key → order id
        private(set) var declined = 0
        /// Rounds whose basket an earlier key paid (the new key met the paid, empty basket).
        private(set) var paidByAnotherKey = 0
        private(set) var retries = 0
        private(set) var newKeys = 0
        private(set) var inProgress = 0
        private(set) var kills = 0
        private(set) var started = 0

        func record(_ body: (Tally) -> Void) {
            lock.lock()
            body(self)
            lock.unlock()
        }

        func acknowledge(key: String, order: String) { record { $0.acknowledged[key] = order } }
        func decline() { record { $0.declined += 1 } }
        func paidElsewhere() { record { $0.paidByAnotherKey += 1 } }
        func retry(newKey: Bool) {
            record {
                $0.retries += 1
                if newKey { $0.newKeys += 1 }
            }
        }
        func retry() { retry(newKey: false) }
        func paymentInProgress() { record { $0.inProgress += 1 } }
        func kill() { record { $0.kills += 1 } }
        func start() { record { $0.started += 1 } }
        var finished: Int {
            lock.lock()
            defer { lock.unlock() }
            return acknowledged.count + declined + paidByAnotherKey
        }
    }

    /// The `store serve` process, restartable on the same port and files.
    final class ServerProcess: @unchecked Sendable {
        let arguments: [String]
        private var process: Process?
        private let lock = NSLock()

        init(port: Int, database: String) {
            arguments = ["serve", "--port", String(port), "--database", database, "--drain-seconds", "0"]
        }

        func start() async throws {
            let running = try StoreProcess.launch(arguments)
            _ = try await StoreProcess.firstLine(of: running)
            swap(running.process)
        }

        /// Replaces the current process with `new`, returning the old one.
        @discardableResult
        private func swap(_ new: Process?) -> Process? {
            lock.withLock {
                let old = process
                process = new
                return old
            }
        }

        /// Kills the server with SIGKILL and waits (up to 30 s, never forever: see ``ShortProgram``)
        /// until Foundation has seen it end.
        func kill9() async throws {
            if let victim = swap(nil), victim.isRunning {
                Foundation.kill(victim.processIdentifier, SIGKILL)
                _ = try await StoreProcess.waitForExit(victim)
            }
        }

        func terminate() async throws {
            if let victim = swap(nil), victim.isRunning {
                victim.terminate()
                _ = try await StoreProcess.waitForExit(victim)
            }
        }
    }

    static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(socketFD, raw, length) == 0 && getsockname(socketFD, raw, &length) == 0
            }
        }
        guard bound else { throw TestError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// One request to the store at `base` (``WireHTTP``); a transport error or a timeout is
    /// status 0 (the caller decides what to do about it).
    static func send(
        _ base: URL, _ method: String, _ path: String, token: String?, key: String? = nil, json: String? = nil
    ) async -> (Int, Data) {
        (try? await WireHTTP.send(base, method, path, token: token, key: key, json: json)) ?? (0, Data())
    }

    @Test func checkoutsSurviveKillMinusNine() async throws {
        let checkouts = Int(Self.environment["STORE_CHAOS_CHECKOUTS"] ?? "") ?? 240
        let shoppers = Int(Self.environment["STORE_CHAOS_SHOPPERS"] ?? "") ?? 16
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "store-chaos-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path

        // Enough stock for every checkout, set before the server starts.
        let setup = try await StoreDatabase.open(url: "sqlite:\(path)", hasher: .minimal)
        _ = try await setup.sql.write { try $0.execute("UPDATE products SET stock = 1000000") }
        await setup.close()

        let port = try Self.freePort()
        let server = ServerProcess(port: port, database: "sqlite:\(path)")
        try await server.start()
        guard let base = URL(string: "http://127.0.0.1:\(port)") else { throw TestError("bad URL") }
        let tally = Tally()

        /// Sends until the server answers; connection errors and timeouts are retried (same request).
        @Sendable func call(
            _ method: String, _ path: String, token: String?, json: String?, key: String? = nil
        )
            async throws -> (Int, Data)
        {
            while true {
                do {
                    return try await WireHTTP.send(base, method, path, token: token, key: key, json: json)
                } catch {
                    tally.retry()
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
        }

        let done = ManagedFlag()
        let killer = Task {
            var generator = SystemRandomNumberGenerator()
            // The first kill comes early, so that a fast machine cannot finish every checkout
            // before it: the run must see the server die at least once.
            var pause = 20...200
            while !done.isSet {
                try await Task.sleep(for: .milliseconds(Int.random(in: pause, using: &generator)))
                pause = 300...1_200
                if done.isSet { break }
                try await server.kill9()
                tally.kill()
                try await server.start()
                tally.start()
            }
        }

        let perShopper = min(20, (checkouts + shoppers - 1) / shoppers)

        /// One checkout request; a transport error or timeout is status 0 (the caller decides).
        @Sendable func checkout(token: String?, body: String, key: String) async -> (Int, Data) {
            await Self.send(base, "POST", "/api/checkout", token: token, key: key, json: body)
        }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for shopperIndex in 0..<shoppers {
                group.addTask {
                    var generator = SystemRandomNumberGenerator()
                    var token: String?
                    while token == nil {
                        let (status, data) = try await call("POST", "/api/sessions", token: nil, json: nil)
                        if status == 201 { token = try JSONDecoder().decode(SessionResponse.self, from: data).token }
                    }
                    let products = Array((1...20).shuffled(using: &generator).prefix(perShopper))
                    for (round, product) in products.enumerated() {
                        var status = 0
                        while status != 200 {
                            (status, _) = try await call(
                                "PUT", "/api/basket/items/\(product)", token: token, json: #"{"quantity":1}"#)
                        }
                        var basket: BasketBody?
                        while basket == nil {
                            let (status, data) = try await call("GET", "/api/basket", token: token, json: nil)
                            if status == 200 {
                                basket = try StoreJSON.makeDecoder().decode(BasketBody.self, from: data)
                            }
                        }
                        guard let total = basket?.total.amountText else { continue }
                        let card =
                            Int.random(in: 0..<5, using: &generator) == 0
                            ? "tok_timeout"
                            : ["tok_visa", "tok_mastercard", "tok_visa", "tok_chargeDeclined"].randomElement(
                                using: &generator) ?? "tok_visa"
                        var keyNumber = 0
                        var key = "chaos-\(shopperIndex)-\(round)-\(keyNumber)"
                        let body =
                            #"{"payment_method":{"type":"card","token":"\#(card)"},"expected_total":{"amount":"\#(total)","currency":"EUR"}}"#
                        while true {
                            let (status, data) = await checkout(token: token, body: body, key: key)
                            if status == 201 {
                                let order = try StoreJSON.makeDecoder().decode(OrderBody.self, from: data)
                                tally.acknowledge(key: "\(shopperIndex)/\(key)", order: order.id)
                                break
                            }
                            if status == 402 {
                                tally.decline()
                                // The basket was kept: empty it for the next round.
                                _ = try await call("DELETE", "/api/basket/items/\(product)", token: token, json: nil)
                                break
                            }
                            let type = try? StoreJSON.makeDecoder().decode(ErrorBody.self, from: data).error.type
                            if status == 422 && type == "empty_basket" {
                                tally.paidElsewhere()  // an earlier key of this round paid it
                                break
                            }
                            if type == "payment_in_progress" { tally.paymentInProgress() }
                            // 503, 409 in progress, a timeout, a dead server: try again — one time
                            // in three, naively, with a new key.
                            let newKey = Int.random(in: 0..<3, using: &generator) == 0
                            if newKey {
                                keyNumber += 1
                                key = "chaos-\(shopperIndex)-\(round)-\(keyNumber)"
                            }
                            tally.retry(newKey: newKey)
                            try await Task.sleep(for: .milliseconds(50))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        done.set()
        try await killer.value
        try await server.terminate()
        // One last clean start resolves anything still pending, then the books are checked.
        try await server.start()
        try await server.terminate()

        let store = try await StoreDatabase.openUnmigrated(url: "sqlite:\(path)")
        let ledger = try await StoreDatabase.openUnmigrated(url: "sqlite:\(path).sandbox-provider")
        let orders = try await store.sql.read { connection in
            try connection.query(
                "SELECT o.id, o.attempt_id, a.idempotency_key, a.shopper_id FROM orders o JOIN payment_attempts a ON a.id = o.attempt_id"
            )
        }
        let attemptIDs = try orders.map { try $0.decode("attempt_id", as: String.self) }
        let charged = try await ledger.sql.read { connection in
            try connection.query("SELECT key FROM sandbox_charges WHERE outcome = 'approved'").map {
                try $0.decode("key", as: String.self)
            }
        }
        let pending = try await store.sql.read { connection in
            try connection.queryFirst("SELECT COUNT(*) AS n FROM payment_attempts WHERE state = 'pending'")?.decode(
                "n", as: Int.self)
        }
        let paidTwice = try await store.sql.read { connection in
            try connection.queryFirst(
                """
                SELECT COUNT(*) AS n FROM (
                    SELECT o.shopper_id, l.product_id FROM orders o JOIN order_lines l ON l.order_id = o.id
                    GROUP BY o.shopper_id, l.product_id HAVING COUNT(*) > 1) AS twice
                """)?.decode("n", as: Int.self)
        }
        let integrity = try await store.sql.read { try $0.queryFirst("PRAGMA integrity_check")?.values.first }
        let ledgerIntegrity = try await ledger.sql.read { try $0.queryFirst("PRAGMA integrity_check")?.values.first }
        await store.close()
        await ledger.close()

        let orderIDs = Set(try orders.map { try $0.decode("id", as: String.self) })
        let keys = try orders.map {
            "\(try $0.decode("shopper_id", as: String.self))/\(try $0.decode("idempotency_key", as: String.self))"
        }
        let lost = tally.acknowledged.values.filter { !orderIDs.contains($0) }
        print(
            """
            chaos: \(tally.finished) checkouts from \(shoppers) shoppers (\(tally.acknowledged.count) acknowledged, \
            \(tally.paidByAnotherKey) paid under an earlier key, \(tally.declined) declined), \
            \(tally.kills) kill -9 and restarts, \(tally.retries) retries (\(tally.newKeys) with a new key, \
            \(tally.inProgress) answered payment_in_progress); \(orders.count) orders, \(charged.count) provider charges, \
            \(paidTwice ?? -1) baskets paid twice, \
            \(Set(keys).count == keys.count ? 0 : keys.count - Set(keys).count) duplicate orders, \
            \(lost.count) lost acknowledged orders, \(pending ?? -1) pending, integrity_check \(integrity == .text("ok") && ledgerIntegrity == .text("ok") ? "ok" : "FAILED")
            """)
        #expect(tally.finished >= checkouts)
        #expect(tally.kills >= 1)
        #expect(Set(attemptIDs) == Set(charged), "every paid order is one provider charge and vice versa")
        #expect(orders.count == charged.count)
        #expect(Set(keys).count == keys.count, "no idempotency key has two orders")
        #expect(Set(attemptIDs).count == attemptIDs.count)
        #expect(lost.isEmpty, "every acknowledged order exists")
        #expect(paidTwice == 0, "no shopper bought a product twice: no basket was paid twice")
        #expect(orders.count == tally.acknowledged.count + tally.paidByAnotherKey)
        #expect(pending == 0)
        #expect(integrity == .text("ok"))
        #expect(ledgerIntegrity == .text("ok"))
    }
}

/// A flag set once, read from any thread.
final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
