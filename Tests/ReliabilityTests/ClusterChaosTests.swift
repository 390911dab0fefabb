import CheckoutKit
import Foundation
import StoreAPI
import StoreDatabase
import StoreSQL
import StoreServerTestSupport
import StoreTestSupport
import TestWaiting
import Testing

/// Checkouts through the cluster — PostgreSQL, three `store serve` processes and nginx in front
/// (`scripts/cluster.sh`) — while random servers are killed with SIGKILL and started again
/// (docs/RELIABILITY.md, "Several servers under kill -9").
///
/// The shoppers are those of ``ChaosTests``: each buys products one at a time, one per basket; after
/// an error they retry, one time in three with a *new* key. One checkout in five pays with
/// `tok_slow` (charged at once, answered a second later), so kills land on charges in flight, and
/// one in ten with `tok_timeout` (charged, answer lost).
///
/// At the end: every order a client saw exists, the orders equal the provider's charges, no key has
/// two orders, no basket was paid twice, nothing stays pending. Printed: the time from a server's
/// death to the answer of each checkout it was working on (the retry, through another server).
///
/// `make test` runs a short version; `make chaos` runs ≥ 2,000 checkouts
/// (`STORE_CLUSTER_CHAOS_CHECKOUTS`, `STORE_CLUSTER_CHAOS_SHOPPERS`).
@Suite("Chaos through the cluster: kill -9 of random servers", .serialized) struct ClusterChaosTests {
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        var acknowledged: [String: String] = [:]  // shopper/key → order id
        var declined = 0
        var paidByAnotherKey = 0
        var retries = 0
        var newKeys = 0
        var inProgress = 0
        /// When each kill happened, and which server it was.
        private(set) var kills: [(at: ContinuousClock.Instant, server: Int)] = []
        /// Each checkout round's requests that failed for want of a server (no answer, 502, 504),
        /// with the instant its round was answered for good.
        private(set) var cutOff:
            [(start: ContinuousClock.Instant, end: ContinuousClock.Instant, answered: ContinuousClock.Instant)] = []

        /// How long each checkout request that was answered took: what a request costs under this
        /// load, to read the takeover times against.
        private(set) var latencies: [Duration] = []

        func record(_ body: (Tally) -> Void) { lock.withLock { body(self) } }
        func answered(in duration: Duration) { record { $0.latencies.append(duration) } }
        var finished: Int { lock.withLock { acknowledged.count + declined + paidByAnotherKey } }
        func kill(_ server: Int) { record { $0.kills.append((ContinuousClock.now, server)) } }
        func roundAnswered(failures: [(ContinuousClock.Instant, ContinuousClock.Instant)]) {
            let now = ContinuousClock.now
            record { tally in tally.cutOff += failures.map { ($0.0, $0.1, now) } }
        }

        /// From each kill to the answer of each checkout that was with the killed server (for a
        /// request cut off, the last kill between its start and its end), and of that time how much
        /// passed before the client saw the request fail.
        func takeoverTimes() -> (answered: [Duration], failed: [Duration]) {
            lock.withLock {
                let pairs = cutOff.compactMap { request in
                    kills.last { $0.at >= request.start && $0.at <= request.end }.map {
                        (request.answered - $0.at, request.end - $0.at)
                    }
                }
                return (pairs.map(\.0), pairs.map(\.1))
            }
        }
    }

    static func percentile(_ sorted: [Duration], _ fraction: Double) -> Duration {
        guard !sorted.isEmpty else { return .zero }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return "\(seconds * 1_000 + attoseconds / 1_000_000_000_000_000) ms"
    }

    @Test func checkoutsThroughTheClusterSurviveKillMinusNine() async throws {
        // The cluster starts its own PostgreSQL: it needs the server's programs and nginx (make test
        // installs both; CI must have them).
        let programs = ["/usr/lib/postgresql/15/bin/initdb", "/usr/sbin/nginx"]
        guard programs.allSatisfy(FileManager.default.isExecutableFile(atPath:)) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("PostgreSQL 15 and nginx are required in CI")
            } else {
                print("skipped: PostgreSQL 15 or nginx is not installed (make test installs them)")
            }
            return
        }
        let environment = ProcessInfo.processInfo.environment
        let checkouts = Int(environment["STORE_CLUSTER_CHAOS_CHECKOUTS"] ?? "") ?? 150
        let shoppers = Int(environment["STORE_CLUSTER_CHAOS_SHOPPERS"] ?? "") ?? 12
        let servers = 3
        let directory = "/tmp/store-cluster-chaos-\(UUID().uuidString.prefix(8))"
        // `make chaos` runs the release server (STORE_CLUSTER_BIN); make test the debug one.
        let binary = environment["STORE_CLUSTER_BIN"] ?? StoreProcess.storeBinary.path
        let address = try await ClusterTests.cluster(["start", String(servers), directory], binary: binary)
        do {
            try await Self.run(
                base: try #require(URL(string: address)), directory: directory, servers: servers, binary: binary,
                checkouts: checkouts, shoppers: shoppers)
        } catch {
            _ = try? await ClusterTests.cluster(["stop", directory])
            throw error
        }
        _ = try await ClusterTests.cluster(["stop", directory])
    }

    static func run(
        base: URL, directory: String, servers: Int, binary: String, checkouts: Int, shoppers: Int
    ) async throws {
        let databaseURL = try String(contentsOfFile: directory + "/database.url", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let setup = try await StoreDatabase.openUnmigrated(url: databaseURL, poolSize: 1)
        _ = try await setup.sql.write { try $0.execute("UPDATE products SET stock = 1000000") }
        await setup.close()

        let tally = Tally()

        /// One request through nginx; a transport error is status 0.
        @Sendable func send(
            _ method: String, _ path: String, token: String?, key: String? = nil, json: String? = nil
        ) async -> (Int, Data) {
            await ChaosTests.send(base, method, path, token: token, key: key, json: json)
        }
        /// Sends until a server answers with `expected`.
        @Sendable func call(
            _ method: String, _ path: String, token: String?, json: String? = nil, expected: Int
        ) async throws -> Data {
            while true {
                let (status, data) = await send(method, path, token: token, json: json)
                if status == expected { return data }
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        let done = ManagedFlag()
        // One server at a time: 0.3–1 s after the last one is back, a random server is killed; it is
        // started again 0.2–0.8 s later.
        let killer = Task {
            var generator = SystemRandomNumberGenerator()
            while !done.isSet {
                try await Task.sleep(for: .milliseconds(Int.random(in: 300...1_000, using: &generator)))
                if done.isSet { break }
                let server = Int.random(in: 1...servers, using: &generator)
                // Killed from here, not through the script, so that the instant noted is the kill's.
                let pid = try String(contentsOfFile: "\(directory)/store-\(server).pid", encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                guard let pid = pid_t(pid), Foundation.kill(pid, SIGKILL) == 0 else {
                    throw TestError("store \(server) could not be killed")
                }
                tally.kill(server)
                try await Task.sleep(for: .milliseconds(Int.random(in: 200...800, using: &generator)))
                _ = try await ClusterTests.cluster(["restart", String(server), directory], binary: binary)
            }
        }

        let perShopper = min(20, (checkouts + shoppers - 1) / shoppers)
        let clock = ContinuousClock()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for shopperIndex in 0..<shoppers {
                group.addTask {
                    var generator = SystemRandomNumberGenerator()
                    let created = try await call("POST", "/api/sessions", token: nil, expected: 201)
                    let token = try JSONDecoder().decode(SessionResponse.self, from: created).token
                    let products = Array((1...20).shuffled(using: &generator).prefix(perShopper))
                    for (round, product) in products.enumerated() {
                        _ = try await call(
                            "PUT", "/api/basket/items/\(product)", token: token, json: #"{"quantity":1}"#,
                            expected: 200)
                        let data = try await call("GET", "/api/basket", token: token, expected: 200)
                        let total = try StoreJSON.makeDecoder().decode(BasketBody.self, from: data).total.amountText
                        let card =
                            switch Int.random(in: 0..<10, using: &generator) {
                            case 0, 1: "tok_slow"
                            case 2: "tok_timeout"
                            case 3: "tok_chargeDeclined"
                            default: ["tok_visa", "tok_mastercard"].randomElement(using: &generator) ?? "tok_visa"
                            }
                        var keyNumber = 0
                        var key = "cluster-\(shopperIndex)-\(round)-\(keyNumber)"
                        let body =
                            #"{"payment_method":{"type":"card","token":"\#(card)"},"expected_total":{"amount":"\#(total)","currency":"EUR"}}"#
                        var failures: [(ContinuousClock.Instant, ContinuousClock.Instant)] = []
                        while true {
                            let start = clock.now
                            let (status, data) = await send("POST", "/api/checkout", token: token, key: key, json: body)
                            if [0, 502, 504].contains(status) {
                                failures.append((start, clock.now))
                            } else {
                                tally.answered(in: start.duration(to: clock.now))
                            }
                            let type = try? StoreJSON.makeDecoder().decode(ErrorBody.self, from: data).error.type
                            if status == 201 {
                                let order = try StoreJSON.makeDecoder().decode(OrderBody.self, from: data)
                                tally.record { $0.acknowledged["\(shopperIndex)/\(key)"] = order.id }
                                break
                            }
                            if status == 402 {
                                tally.record { $0.declined += 1 }
                                _ = try await call(
                                    "DELETE", "/api/basket/items/\(product)", token: token, expected: 200)
                                break
                            }
                            if status == 422 && type == "empty_basket" {
                                tally.record { $0.paidByAnotherKey += 1 }
                                break
                            }
                            if type == "payment_in_progress" || type == "idempotency_in_progress" {
                                tally.record { $0.inProgress += 1 }
                            }
                            let newKey = Int.random(in: 0..<3, using: &generator) == 0
                            if newKey {
                                keyNumber += 1
                                key = "cluster-\(shopperIndex)-\(round)-\(keyNumber)"
                            }
                            tally.record {
                                $0.retries += 1
                                if newKey { $0.newKeys += 1 }
                            }
                            try await Task.sleep(for: .milliseconds(50))
                        }
                        tally.roundAnswered(failures: failures)
                    }
                }
            }
            try await group.waitForAll()
        }
        done.set()
        try await killer.value

        // Every server is up again; reconciliation settles what naive new keys left pending.
        let store = try await StoreDatabase.openUnmigrated(url: databaseURL, poolSize: 2)
        func count(_ sql: SQLQuery) async throws -> Int {
            try await store.sql.read { try $0.queryFirst(sql)?.decode("n", as: Int.self) } ?? -1
        }
        let settled = try await eventually(timeout: .seconds(60), every: .milliseconds(200)) {
            try await count("SELECT COUNT(*) AS n FROM payment_attempts WHERE state = 'pending'") == 0
        }
        let orders = try await store.sql.read { connection in
            try connection.query(
                "SELECT o.id, o.attempt_id, a.idempotency_key, a.shopper_id FROM orders o JOIN payment_attempts a ON a.id = o.attempt_id"
            )
        }
        let charged = try await store.sql.read { connection in
            try connection.query("SELECT key FROM sandbox_charges WHERE outcome = 'approved'").map {
                try $0.decode("key", as: String.self)
            }
        }
        let paidTwice = try await count(
            """
            SELECT COUNT(*) AS n FROM (
                SELECT o.shopper_id, l.product_id FROM orders o JOIN order_lines l ON l.order_id = o.id
                GROUP BY o.shopper_id, l.product_id HAVING COUNT(*) > 1) AS twice
            """)
        await store.close()

        let attemptIDs = try orders.map { try $0.decode("attempt_id", as: String.self) }
        let orderIDs = Set(try orders.map { try $0.decode("id", as: String.self) })
        let keys = try orders.map {
            "\(try $0.decode("shopper_id", as: String.self))/\(try $0.decode("idempotency_key", as: String.self))"
        }
        let lost = tally.acknowledged.values.filter { !orderIDs.contains($0) }
        let takeovers = tally.takeoverTimes()
        let times = takeovers.answered.sorted()
        let failed = takeovers.failed.sorted()
        let latencies = tally.latencies.sorted()
        print(
            """
            cluster chaos: \(tally.finished) checkouts from \(shoppers) shoppers through nginx and \(servers) servers \
            (\(tally.acknowledged.count) acknowledged, \(tally.paidByAnotherKey) paid under an earlier key, \
            \(tally.declined) declined), \(tally.kills.count) kill -9 and restarts, \(tally.retries) retries \
            (\(tally.newKeys) with a new key, \(tally.inProgress) answered in progress); \(orders.count) orders, \
            \(charged.count) provider charges, \(paidTwice) baskets paid twice, \
            \(Set(keys).count == keys.count ? 0 : keys.count - Set(keys).count) duplicate orders, \
            \(lost.count) lost acknowledged orders, pending settled: \(settled); \
            \(times.count) checkouts cut off by a kill, answered after the death in \
            p50 \(milliseconds(percentile(times, 0.5))), p90 \(milliseconds(percentile(times, 0.9))), \
            p99 \(milliseconds(percentile(times, 0.99))), max \(milliseconds(times.last ?? .zero)) \
            (the cut-off request failed after p50 \(milliseconds(percentile(failed, 0.5))), \
            max \(milliseconds(failed.last ?? .zero))); \
            every answered checkout request took p50 \(milliseconds(percentile(latencies, 0.5))), \
            p99 \(milliseconds(percentile(latencies, 0.99))), max \(milliseconds(latencies.last ?? .zero))
            """)
        #expect(tally.finished >= min(checkouts, perShopper * shoppers))
        #expect(!tally.kills.isEmpty)
        #expect(Set(attemptIDs) == Set(charged), "every paid order is one provider charge and vice versa")
        #expect(orders.count == charged.count)
        #expect(Set(keys).count == keys.count, "no idempotency key has two orders")
        #expect(lost.isEmpty, "every acknowledged order exists")
        #expect(paidTwice == 0, "no basket was paid twice")
        #expect(orders.count == tally.acknowledged.count + tally.paidByAnotherKey)
        #expect(settled, "nothing stays pending")
    }
}
