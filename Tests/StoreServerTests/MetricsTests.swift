import CheckoutKit
import Foundation
import HTTPServer
import StoreAPI
import StoreCrypto
import StoreSQL
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import TestWaiting
import Testing

@testable import StoreServer

/// `/metrics` (docs/BEHAVIOUR.md §15.4): what it counts, who may read it, and that Prometheus's own
/// checker accepts it.
@Suite("Operations: metrics") struct MetricsTests {
    @Test("requests, checkouts and provider calls counted by pattern; loopback or the token only; promtool accepts it")
    func metrics() async throws {
        try await TestStore.with(.sqlite) { store in
            let shopper = try await store.newSession()
            let order = try await store.placeOrder([(1, 1)], token: shopper)
            _ = try await store.send(Endpoints.order, order.id, token: shopper)
            _ = try await store.send("GET", "/no/such/page/ord_secret")
            for method in ["BREW", "WHEN", "TEAPOT"] { _ = try await store.send(method, "/api/products") }

            let reply = try await store.send(OperationsEndpoints.metrics)
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = reply.text
            #expect(
                text.contains(#"store_http_requests_total{route="/api/orders/{id}",method="GET",status_class="2xx"} 2"#)
            )
            #expect(text.contains(#"store_http_requests_total{route="unmatched",method="GET",status_class="4xx"} 1"#))
            #expect(text.contains(#"store_checkouts_total{outcome="paid"} 1"#))
            #expect(text.contains(#"store_payment_provider_request_duration_seconds_count{operation="charge"} 1"#))
            #expect(text.contains("store_unresolved_payment_attempts 0"))
            #expect(text.contains("process_resident_memory_bytes "))
            // Methods a client made up are counted, under one label.
            #expect(
                text.contains(#"store_http_requests_total{route="/api/products",method="other",status_class="4xx"} 3"#))
            #expect(!text.contains("BREW") && !text.contains("TEAPOT"))
            #expect(!text.contains(order.id), "never an id in a label")
            #expect(!text.contains("ord_secret"))
            #expect(!text.contains(shopper))

            // From elsewhere: 404, unless with the token (none is configured here).
            let remote = await store.server.respond(
                to: Request(method: .get, target: "/metrics", clientAddress: "203.0.113.9"))
            #expect(remote.status == .notFound)

            // Prometheus's own checker, when it is installed (make test installs it).
            let promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            }
            if let promtool {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: promtool)
                process.arguments = ["check", "metrics"]
                let input = Pipe()
                let output = Pipe()
                process.standardInput = input
                process.standardOutput = output
                process.standardError = output
                try process.run()
                input.fileHandleForWriting.write(Data(text.utf8))
                try input.fileHandleForWriting.close()
                let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "promtool: \(said)")
            } else {
                Issue.record("promtool is not installed (apt-get install prometheus)")
            }
        }
    }

    /// A checkout on PostgreSQL is three round trips, as the benchmark's are: the session with what
    /// pricing needs (or, when the session was seen lately, only what pricing needs), the
    /// reservation, and the payment's record. Each is one pipeline sent with its `COMMIT`. The
    /// count is the pool's own; the catalog's timed refresh is put off so that nothing else runs.
    @Test("a checkout on PostgreSQL is three round trips, whether its session was seen lately or not")
    func checkoutInThreeRoundTrips() async throws {
        let quiet = StoreConfiguration(catalogRefreshInterval: .seconds(3_600))
        try await TestStore.with(.postgres, configuration: quiet) { store in
            let pool = try #require(store.database.sql as? any SQLQueueReporting)
            func counted() throws -> Int { try #require(pool.roundTrips) }
            // A shopper this server has never seen: their session is made in the database, as the
            // benchmark makes its shoppers.
            let token = SecretToken.generate()
            let now = Date()
            _ = try await store.database.sessions.createAnonymousSession(
                tokenHash: token.hash, now: now, expiresAt: now.addingTimeInterval(3_600),
                lines: [(ProductID(1), try #require(Quantity(1))), (ProductID(3), try #require(Quantity(2)))])
            let stock = try await store.stock(3)
            var before = try counted()
            let paid = try await store.checkout(
                token: token.text, key: "cold", method: #"{"type":"qr_code"}"#, total: "33.05")
            #expect(paid.status == 201, "\(paid.text)")
            #expect(try counted() - before == 3)
            // The sale's stock is read into the catalog after it; wait for that before counting again.
            #expect(
                try await eventually {
                    try await store.send("GET", "/api/products/3").text.contains(#""stock":\#(stock - 2)"#)
                })
            // The same shopper again: the session is in this server's cache, the basket is read alone.
            _ = try await store.setQuantity(1, of: 2, token: token.text)
            before = try counted()
            let again = try await store.checkout(
                token: token.text, key: "warm", method: #"{"type":"qr_code"}"#, total: "26.85")
            #expect(again.status == 201, "\(again.text)")
            #expect(try counted() - before == 3)
        }
    }

    @Test(
        "round trips to PostgreSQL are counted and its presence lock shown; SQLite, in the same process, has neither, counts its group commits and runs a checkout's lookups where they are asked",
        arguments: Backend.allCases)
    func roundTrips(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            func counted() async throws -> Int? {
                let text = try await store.send(OperationsEndpoints.metrics).text
                let line = text.split(separator: "\n").first { $0.hasPrefix("store_database_round_trips_total ") }
                return line.flatMap { Int($0.split(separator: " ").last ?? "") }
            }
            let before = try await counted()
            let shopper = try await store.newSession()
            _ = try await store.placeOrder([(1, 1), (2, 2)], token: shopper)
            let after = try await counted()
            let presence = try await store.send(OperationsEndpoints.metrics).text.split(separator: "\n")
                .first { $0.hasPrefix("store_presence_held ") }
            switch backend {
            case .sqlite:
                #expect(presence == nil, "SQLite has no presence lock")
                #expect(before == nil && after == nil)
                let text = try await store.send(OperationsEndpoints.metrics).text
                func value(_ name: String) -> Int? {
                    text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
                        .flatMap { Int($0.split(separator: " ").last ?? "") }
                }
                let commits = try #require(value("store_database_commits_total"))
                let writes = try #require(value("store_database_committed_writes_total"))
                // The order's reservation and its payment, at least, each in a commit.
                #expect(commits >= 2 && writes >= commits)
                // The session and the basket, at least, read at once by the request's own thread.
                let onCaller = try #require(value("store_database_lookups_total{ran=\"caller\"}"))
                #expect(onCaller >= 2)
                #expect(value("store_database_lookups_total{ran=\"reader\"}") != nil)
            case .postgres:
                #expect(presence == "store_presence_held 1")
                let text = try await store.send(OperationsEndpoints.metrics).text
                #expect(!text.contains("store_database_lookups_total"), "PostgreSQL's reads all cross to its server")
                let before = try #require(before)
                let after = try #require(after)
                #expect(after > before)
            }
        }
    }

    @Test("the metrics token opens /metrics to another address")
    func token() async throws {
        func may(
            _ authorization: String?, from address: String = "203.0.113.9", token: String? = "a-token-of-16-chars"
        )
            -> Bool
        {
            var headers: HTTPHeaders = [:]
            if let authorization { headers["Authorization"] = authorization }
            return OperationsRoutes.mayReadMetrics(
                Request(method: .get, target: "/metrics", headers: headers, clientAddress: address), token: token)
        }
        #expect(may("Bearer a-token-of-16-chars"))
        #expect(!may("Bearer a-token-of-16-chart"))
        #expect(!may("Bearer a-token"))
        #expect(!may(nil))
        #expect(!may("Bearer a-token-of-16-chars", token: nil))
        #expect(may(nil, from: "127.0.0.1", token: nil))
        #expect(may(nil, from: "::1", token: nil))
    }
}
