import Foundation
import StoreAPI
import StoreDatabase
import StoreServerTestSupport
import StoreTestSupport
import TestWaiting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `store backup` (docs/BEHAVIOUR.md §15.6): a consistent copy of a SQLite store taken while it
/// serves and writes, checked, and served again.
@Suite("store backup") struct BackupTests {
    /// Orders paid through a running store until told to stop, each as soon as it is answered.
    final class Load: @unchecked Sendable {
        private let lock = NSLock()
        private var paid: [String] = []
        private var stopped = false

        var orders: [String] { lock.withLock { paid } }
        func stop() { lock.withLock { stopped = true } }
        var isStopped: Bool { lock.withLock { stopped } }
        func record(_ order: String) { lock.withLock { paid.append(order) } }
    }

    static func call(
        _ base: String, _ method: String, _ path: String, token: String? = nil, key: String? = nil, json: String? = nil
    )
        async throws -> (Int, Data)
    {
        var request = URLRequest(url: try #require(URL(string: base + path)))
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let key { request.setValue(key, forHTTPHeaderField: "Idempotency-Key") }
        request.httpBody = json.map { Data($0.utf8) }
        let (data, response) = try await URLSession.shared.uncancelledData(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    @Test("a backup taken during a write load is sound, holds every order answered before it began, and serves")
    func backupDuringWrites() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "store-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = "sqlite:\(directory.appendingPathComponent("store.sqlite").path)"
        let copy = directory.appendingPathComponent("copy.sqlite").path
        let running = try StoreProcess.launch(["serve", "--port", "0", "--drain-seconds", "0", "--database", database])
        defer { if running.process.isRunning { running.process.terminate() } }
        let base = String(try await StoreProcess.firstLine(of: running).dropFirst("listening on ".count))

        // Shoppers paying, one order after another, on four lanes.
        let load = Load()
        let writers = (0..<4).map { lane in
            Task {
                var round = 0
                while !load.isStopped {
                    round += 1
                    let (created, session) = try await Self.call(base, "POST", "/api/sessions")
                    guard created == 201 else { continue }
                    let token = try JSONDecoder().decode(SessionResponse.self, from: session).token
                    let product = (lane * 5 + round) % 20 + 1
                    let (set, basketData) = try await Self.call(
                        base, "PUT", "/api/basket/items/\(product)", token: token, json: #"{"quantity":1}"#)
                    guard set == 200 else { continue }
                    let total = try StoreJSON.makeDecoder().decode(BasketBody.self, from: basketData).total.amountText
                    let (paid, orderData) = try await Self.call(
                        base, "POST", "/api/checkout", token: token, key: UUID().uuidString,
                        json:
                            #"{"payment_method":{"type":"qr_code"},"expected_total":{"amount":"\#(total)","currency":"EUR"}}"#
                    )
                    if paid == 201 {
                        load.record(try StoreJSON.makeDecoder().decode(OrderBody.self, from: orderData).id)
                    }
                }
            }
        }
        _ = try await eventually(timeout: .seconds(60), every: .milliseconds(20)) { load.orders.count >= 20 }
        let answeredBefore = load.orders
        let backup = try StoreProcess.launch(["backup", "--database", database, "--to", copy])
        #expect(try await StoreProcess.waitForExit(backup) == 0, "\(backup.stderr.text)")
        _ = try await eventually(timeout: .seconds(60), every: .milliseconds(20)) {
            load.orders.count >= answeredBefore.count + 10
        }
        load.stop()
        for writer in writers { _ = try? await writer.value }

        #expect(backup.stdout.text.contains("integrity ok"))
        let copied = try await StoreDatabase.openUnmigrated(url: "sqlite:\(copy)")
        let inCopy = try await copied.sql.read { connection in
            Set(try connection.query("SELECT id FROM orders").map { try $0.decode("id", as: String.self) })
        }
        await copied.close()
        #expect(Set(answeredBefore).isSubset(of: inCopy), "every order answered before the backup began is in it")
        #expect(backup.stdout.text.contains("\(inCopy.count) orders"))

        // A server started on the copy serves it.
        let restored = try StoreProcess.launch([
            "serve", "--port", "0", "--drain-seconds", "0", "--database", "sqlite:\(copy)",
        ])
        defer { if restored.process.isRunning { restored.process.terminate() } }
        let restoredBase = String(try await StoreProcess.firstLine(of: restored).dropFirst("listening on ".count))
        #expect(try await Self.call(restoredBase, "GET", "/readyz").0 == 200)
        #expect(try await Self.call(restoredBase, "GET", "/api/products").0 == 200)
        restored.process.terminate()
        #expect(try await StoreProcess.waitForExit(restored) == 0)

        // A backup never overwrites a file, and PostgreSQL has its own tools.
        let again = try StoreProcess.launch(["backup", "--database", database, "--to", copy])
        #expect(try await StoreProcess.waitForExit(again) == 1)
        #expect(again.stderr.text.contains("exists already"))
        let postgres = try StoreProcess.launch([
            "backup", "--database", "postgres://u@127.0.0.1:1/x", "--to", copy + "2",
        ])
        #expect(try await StoreProcess.waitForExit(postgres) == 1)
        #expect(postgres.stderr.text.contains("pg_dump"))
        running.process.terminate()
        #expect(try await StoreProcess.waitForExit(running) == 0)
    }
}
