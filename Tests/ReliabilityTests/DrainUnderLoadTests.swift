import CheckoutKit
import Foundation
import StoreAPI
import StoreDatabase
import StoreSQL
import StoreServerTestSupport
import TestWaiting
import Testing

/// SIGTERM while shoppers are checking out (docs/BEHAVIOUR.md §15.1): the server drains and exits
/// 0; every order it answered exists; every checkout it did not answer is settled by the shopper's
/// retry with the same key on the next start — one order, one charge — and nothing stays pending.
@Suite("SIGTERM during a checkout load", .serialized) struct DrainUnderLoadTests {
    /// What the shoppers saw.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        /// Idempotency key (per shopper) → the order answered.
        private(set) var answered: [String: String] = [:]
        /// Checkouts the first server never answered: shopper token, key, request body.
        private(set) var interrupted: [(token: String, key: String, body: String)] = []

        func answer(_ key: String, order: String) { lock.withLock { answered[key] = order } }
        func interrupt(token: String, key: String, body: String) {
            lock.withLock { interrupted.append((token, key, body)) }
        }
        var answeredCount: Int { lock.withLock { answered.count } }
    }

    @Test("every 201 is an order, every interrupted checkout is settled by its retry, exit status 0")
    func sigtermDuringCheckouts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "store-drain-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        let setup = try await StoreDatabase.open(url: "sqlite:\(path)", hasher: .minimal)
        _ = try await setup.sql.write { try $0.execute("UPDATE products SET stock = 1000000") }
        await setup.close()

        let port = try ChaosTests.freePort()
        let arguments = ["serve", "--port", String(port), "--database", "sqlite:\(path)"]
        let first = try StoreProcess.launch(arguments + ["--drain-seconds", "1"])
        defer { if first.process.isRunning { first.process.terminate() } }
        _ = try await StoreProcess.firstLine(of: first)
        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let tally = Tally()
        let stopped = ManagedFlag()

        // 16 shoppers, each buying one product after another until the server is gone; one
        // checkout in four pays with tok_slow, so some are in flight when the signal comes.
        let shoppers = Task {
            await withTaskGroup(of: Void.self) { group in
                for shopper in 0..<16 {
                    group.addTask {
                        let (status, created) = await ChaosTests.send(base, "POST", "/api/sessions", token: nil)
                        guard status == 201,
                            let token = try? JSONDecoder().decode(SessionResponse.self, from: created).token
                        else { return }
                        for round in 0..<1_000 where !stopped.isSet {
                            let product = round % 20 + 1
                            let (put, _) = await ChaosTests.send(
                                base, "PUT", "/api/basket/items/\(product)", token: token, json: #"{"quantity":1}"#)
                            let (got, data) = await ChaosTests.send(base, "GET", "/api/basket", token: token)
                            guard put == 200, got == 200,
                                let total = try? StoreJSON.makeDecoder().decode(BasketBody.self, from: data).total
                                    .amountText
                            else { return }  // the server is going: nothing was asked to be paid
                            let card = round % 4 == 0 ? "tok_slow" : "tok_visa"
                            let key = "drain-\(shopper)-\(round)"
                            let body =
                                #"{"payment_method":{"type":"card","token":"\#(card)"},"expected_total":{"amount":"\#(total)","currency":"EUR"}}"#
                            let (paid, answer) = await ChaosTests.send(
                                base, "POST", "/api/checkout", token: token, key: key, json: body)
                            if paid == 201,
                                let order = try? StoreJSON.makeDecoder().decode(OrderBody.self, from: answer)
                            {
                                tally.answer("\(token)/\(key)", order: order.id)
                            } else {
                                // Not answered (the connection closed, or 503 while stopping): retry later.
                                tally.interrupt(token: token, key: key, body: body)
                                return
                            }
                        }
                    }
                }
            }
        }

        // The signal comes in the middle of the load.
        #expect(try await eventually(timeout: .seconds(30)) { tally.answeredCount >= 40 })
        first.process.terminate()  // SIGTERM
        let exitStatus = try await StoreProcess.waitForExit(first)
        stopped.set()
        await shoppers.value
        #expect(exitStatus == 0)
        #expect(first.stderr.text.contains("draining"))

        // The next start: each interrupted checkout is retried with its key and settled.
        let second = try StoreProcess.launch(arguments + ["--drain-seconds", "0"])
        defer { if second.process.isRunning { second.process.terminate() } }
        _ = try await StoreProcess.firstLine(of: second)
        var settled: [String: String] = [:]
        for checkout in tally.interrupted {
            let (status, answer) = await ChaosTests.send(
                base, "POST", "/api/checkout", token: checkout.token, key: checkout.key, json: checkout.body)
            let order = try? StoreJSON.makeDecoder().decode(OrderBody.self, from: answer)
            #expect(status == 201, "\(checkout.key): \(String(decoding: answer, as: UTF8.self))")
            if let order { settled["\(checkout.token)/\(checkout.key)"] = order.id }
        }
        second.process.terminate()
        #expect(try await StoreProcess.waitForExit(second) == 0)

        let store = try await StoreDatabase.openUnmigrated(url: "sqlite:\(path)")
        let ledger = try await StoreDatabase.openUnmigrated(url: "sqlite:\(path).sandbox-provider")
        let orders = try await store.sql.read { connection in
            try connection.query("SELECT id, attempt_id FROM orders").map {
                (try $0.decode("id", as: String.self), try $0.decode("attempt_id", as: String.self))
            }
        }
        let pending = try await store.sql.read { connection in
            try connection.queryFirst("SELECT COUNT(*) AS n FROM payment_attempts WHERE state = 'pending'")?.decode(
                "n", as: Int.self)
        }
        let charged = try await ledger.sql.read { connection in
            try connection.query("SELECT key FROM sandbox_charges WHERE outcome = 'approved'").map {
                try $0.decode("key", as: String.self)
            }
        }
        await store.close()
        await ledger.close()

        let orderIDs = Set(orders.map(\.0))
        print(
            """
            drain: \(tally.answered.count) checkouts answered before the exit, \(tally.interrupted.count) \
            interrupted and retried (\(settled.count) settled); \(orders.count) orders, \(charged.count) charges
            """)
        #expect(tally.answered.values.allSatisfy(orderIDs.contains), "every 201 is an order")
        #expect(settled.count == tally.interrupted.count, "every interrupted checkout is settled by its retry")
        #expect(Set(settled.values).isDisjoint(with: Set(tally.answered.values)))
        #expect(orders.count == tally.answered.count + settled.count, "one order per checkout")
        #expect(Set(orders.map(\.1)) == Set(charged), "one charge per order")
        #expect(pending == 0)
    }
}
