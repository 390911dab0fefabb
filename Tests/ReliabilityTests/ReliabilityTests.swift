import CheckoutKit
import Foundation
import StoreAPI
import StoreDatabase
import StoreServer
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import TestWaiting
import Testing

@Suite("Checkout reliability") struct ReliabilityTests {
    static let testCards = [
        "4242424242424242", "4000056655665556", "5555555555554444", "378282246310005", "6011111111111117",
    ]

    /// Every way a card number was written to the store: together, in groups with each separator
    /// the detector knows of, and percent-encoded.
    static func writings(of card: String) -> [String] {
        [card] + [" ", "-", ".", "_", "/", "+", ", "].map { CardWritings.grouped(card, by: $0) }
    }

    static func percentEncoded(_ text: String) -> String { CardWritings.percentEncoded(text) }

    /// Publishes test card numbers in every field a shopper can fill — JSON, headers, paths, query
    /// strings and the storefront's forms, written together, in groups with any separator, `+` for
    /// a space and percent-encoded — then looks for each writing, exactly, in the database files
    /// (with their write-ahead logs), the provider's ledger, the log lines and every response's
    /// body and header fields (its cookies and `Location` included).
    @Test func cardNumbersNeverReachTheDatabaseTheLogsOrAResponse() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-pan-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        let store = try await TestStore.start(url: "sqlite:\(path)")
        var replies: [TestStore.Reply] = []
        let token = try await store.workedCaseShopper()
        let browser = TestBrowser(base: store.base)
        _ = try await browser.get("/product/2")
        _ = try await browser.post("/basket/items", [("product_id", "2")])
        for (index, card) in Self.testCards.enumerated() {
            for written in Self.writings(of: card) {
                let encoded = Self.percentEncoded(written)
                replies.append(
                    try await store.checkout(
                        token: token, key: "pan-\(index)", method: #"{"type":"card","token":"\#(written)"}"#,
                        total: "45.00"))
                replies.append(
                    try await store.checkout(
                        token: token, key: "pan-\(index)", method: #"{"type":"card","token":"tok_\#(written)"}"#,
                        total: "45.00"))
                replies.append(
                    try await store.checkout(
                        token: token, key: "pan-\(index)", method: #"{"type":"\#(written)","token":"tok_visa"}"#,
                        total: "45.00"))
                replies.append(
                    try await store.checkout(token: token, key: written, method: visa, total: "45.00"))
                replies.append(
                    try await store.send(
                        "POST", "/api/checkout", token: token,
                        json:
                            #"{"payment_method":{"type":"card","token":"tok_visa","number":"\#(written)"},"expected_total":{"amount":"45.00","currency":"EUR"}}"#,
                        headers: ["Idempotency-Key": "pan-extra-\(index)"]))
                replies.append(
                    try await store.send("PUT", "/api/basket/promotion", token: token, json: #"{"code":"\#(written)"}"#)
                )
                replies.append(
                    try await store.send(
                        "PUT", "/api/basket/items/1", token: token, json: #"{"quantity":1,"note":"\#(written)"}"#))
                replies.append(
                    try await store.send(
                        "POST", "/carts", token: token, json: #"[{"productId":\#(card),"quantity":1}]"#))
                replies.append(try await store.send("GET", "/api/orders/\(encoded)", token: token))
                replies.append(try await store.send("GET", "/api/products/\(card)"))
                replies.append(try await store.send("GET", "/shop/\(encoded)"))
                replies.append(try await store.send("GET", "/?q=\(encoded)"))
                replies.append(try await store.send("GET", "/?q=\(written.replacingOccurrences(of: " ", with: "+"))"))
                // The storefront's forms, as a browser sends them and as an attacker writes them.
                let formWritten = written.replacingOccurrences(of: " ", with: "+")
                replies.append(try await browser.post("/basket/promotion", rawBody: "code=\(formWritten)"))
                replies.append(try await browser.post("/basket/promotion", rawBody: "code=\(encoded)"))
                replies.append(try await browser.post("/basket/items", [("product_id", "2"), ("note", written)]))
                replies.append(
                    try await browser.post(
                        "/checkout/pay",
                        rawBody: "method=card&card=tok_unavailable&idempotency_key=\(encoded)&expected_total=21.90"))
                replies.append(
                    try await browser.post(
                        "/checkout/pay",
                        [
                            ("method", "card"), ("card", "tok_visa"), ("idempotency_key", written),
                            ("expected_total", "21.90"),
                        ]))
                replies.append(
                    try await browser.get("/checkout/review?method=card&card=tok_visa&idempotency_key=\(encoded)"))
            }
            replies.append(try await store.send("X\(card)", "/api/products"))
        }
        // A real payment too, so the files hold orders.
        #expect(try await store.checkout(token: token, key: "pan-paid", method: visa, total: "45.00").status == 201)
        #expect(replies.allSatisfy { $0.status >= 400 && $0.status < 500 })
        let files = [path, path + "-wal", path + ".sandbox-provider", path + ".sandbox-provider-wal"].compactMap {
            FileManager.default.contents(atPath: $0)
        }
        #expect(files.count >= 3)
        let logs = Data(store.log.all.joined(separator: "\n").utf8)
        let responses = replies.map { reply in
            reply.body + Data(reply.headers.map { "\($0.key): \($0.value)\n" }.joined().utf8)
        }
        await store.stop()
        for card in Self.testCards {
            for written in Self.writings(of: card) + Self.writings(of: card).map(Self.percentEncoded) {
                let bytes = Data(written.utf8)
                #expect(!files.contains { $0.range(of: bytes) != nil }, "card \(written) in a database file")
                #expect(logs.range(of: bytes) == nil, "card \(written) in the logs")
                #expect(!responses.contains { $0.range(of: bytes) != nil }, "card \(written) in a response")
            }
        }
        #expect(files.contains { $0.range(of: Data("tok_visa".utf8)) != nil })  // the scan does see the files
    }

    @Test("an answer lost when the server stops is resolved at the next start")
    func reconciliationAtStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "store-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = "sqlite:\(directory.appendingPathComponent("store.sqlite").path)"
        let first = try await TestStore.start(url: url)
        let token = try await first.workedCaseShopper()
        let lost = try await first.checkout(
            token: token, key: "lost", method: #"{"type":"card","token":"tok_timeout"}"#, total: "45.00")
        #expect(lost.status == 503)
        #expect(try await first.orderCount() == 0)
        await first.stop()

        let second = try await TestStore.start(url: url)
        #expect(try await second.orderCount() == 1)  // resolved before the server accepted connections
        let retry = try await second.checkout(
            token: token, key: "lost", method: #"{"type":"card","token":"tok_timeout"}"#, total: "45.00")
        #expect(retry.status == 201)
        #expect(retry.header("Idempotent-Replayed") == "true")
        #expect(try await second.provider.approvedKeys().count == 1)
        await second.stop()
    }

    @Test("two servers on one PostgreSQL, the same keys sent to both: one order per key")
    func twoServersOnePostgres() async throws {
        guard let base = TestPostgres.required() else { return }
        try await TestPostgres.withFreshSchema(base, prefix: "fleet") { url in
            let one = try await TestStore.start(url: url)
            let two = try await TestStore.start(url: url)

            var tokens: [String] = []
            for _ in 0..<8 { tokens.append(try await one.workedCaseShopper()) }
            let tokenList = tokens
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for (index, token) in tokenList.enumerated() {
                    for server in [one, two, one, two] {
                        group.addTask {
                            var reply = try await server.checkout(
                                token: token, key: "fleet-\(index)", method: visa, total: "45.00")
                            // A client retries "in progress" with the same key until it gets the answer.
                            while reply.status == 409 && reply.errorType == "idempotency_in_progress" {
                                try await Task.sleep(for: .milliseconds(50))
                                reply = try await server.checkout(
                                    token: token, key: "fleet-\(index)", method: visa, total: "45.00")
                            }
                            return reply.status
                        }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 201 })
            #expect(try await one.orderCount() == tokens.count)
            #expect(try await one.provider.approvedKeys().count == tokens.count)
            await one.stop()
            await two.stop()
        }
    }
}

@Suite("Lost answers") struct LostAnswerTests {
    @Test("an attempt whose answer was lost is never given up: it is resolved with the provider")
    func lostAnswersAreResolvedNotExpired() async throws {
        let time = MovableClock()
        try await TestStore.with(.sqlite, clock: time.clock) { store in
            let token = try await store.workedCaseShopper()
            let method = #"{"type":"card","token":"tok_timeout"}"#
            #expect(try await store.checkout(token: token, key: "lost", method: method, total: "45.00").status == 503)
            time.advance(by: 60 * 60)
            #expect(await store.server.reconcilePayments() == 1)
            #expect(try await store.orderCount() == 1)
            let replay = try await store.checkout(token: token, key: "lost", method: method, total: "45.00")
            #expect(replay.status == 201)
        }
    }
}

@Suite("Two store serve processes on one PostgreSQL", .serialized) struct FleetTests {
    typealias Call =
        @Sendable (
            _ base: URL, _ method: String, _ path: String, _ token: String?, _ key: String?, _ json: String?
        ) async throws -> (Int, Data)

    /// Runs `body` against two `store serve` processes on a fresh schema, then stops them (each
    /// must exit 0) and hands `check` the database to count orders and charges in.
    static func withTwoProcesses(
        _ body: (_ bases: [URL], _ call: @escaping Call) async throws -> Void,
        check: (StoreDatabase) async throws -> Void
    ) async throws {
        guard let base = TestPostgres.required() else { return }
        try await TestPostgres.withFreshSchema(base, prefix: "procs") { url in
            // Migrate and seed once, as the first server of a fleet would.
            let setup = try await StoreDatabase.open(url: url, hasher: .minimal, poolSize: 1)
            await setup.close()
            let first = try StoreProcess.launch(["serve", "--port", "0", "--database", url, "--drain-seconds", "0"])
            let second = try StoreProcess.launch(["serve", "--port", "0", "--database", url, "--drain-seconds", "0"])
            defer {
                if first.process.isRunning { first.process.terminate() }
                if second.process.isRunning { second.process.terminate() }
            }
            var found: [URL] = []
            for process in [first, second] {
                let line = try await StoreProcess.firstLine(of: process)
                found.append(try #require(URL(string: String(line.dropFirst("listening on ".count)))))
            }
            let call: Call = { base, method, path, token, key, json in
                try await WireHTTP.send(base, method, path, token: token, key: key, json: json)
            }
            try await body(found, call)

            first.process.terminate()
            second.process.terminate()
            #expect(try await StoreProcess.waitForExit(first) == 0)
            #expect(try await StoreProcess.waitForExit(second) == 0)
            let database = try await StoreDatabase.openUnmigrated(url: url, poolSize: 1)
            do {
                try await check(database)
            } catch {
                await database.close()
                throw error
            }
            await database.close()
        }
    }

    static func orderAttempts(_ database: StoreDatabase) async throws -> [String] {
        try await database.sql.read { connection in
            try connection.query("SELECT attempt_id FROM orders").map { try $0.decode("attempt_id", as: String.self) }
        }
    }

    static func charges(_ database: StoreDatabase) async throws -> [String] {
        try await database.sql.read { connection in
            try connection.query("SELECT key FROM sandbox_charges WHERE outcome = 'approved'").map {
                try $0.decode("key", as: String.self)
            }
        }
    }

    @Test("the same keys sent to two store serve processes: one order and one charge per key")
    func twoProcessesOneDatabase() async throws {
        let shopperCount = 6
        try await Self.withTwoProcesses { bases, call in
            var shoppers: [(token: String, total: String)] = []
            for index in 0..<shopperCount {
                let server = bases[index % 2]
                let (_, created) = try await call(server, "POST", "/api/sessions", nil, nil, nil)
                let token = try JSONDecoder().decode(SessionResponse.self, from: created).token
                _ = try await call(server, "PUT", "/api/basket/items/\(index + 1)", token, nil, #"{"quantity":2}"#)
                let (_, basket) = try await call(bases[(index + 1) % 2], "GET", "/api/basket", token, nil, nil)
                shoppers.append((token, try StoreJSON.decoder.decode(BasketBody.self, from: basket).total.amountText))
            }
            let frozen = shoppers
            let outcomes = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for (index, shopper) in frozen.enumerated() {
                    for attempt in 0..<6 {
                        group.addTask {
                            let body =
                                #"{"payment_method":{"type":"card","token":"tok_visa"},"expected_total":{"amount":"\#(shopper.total)","currency":"EUR"}}"#
                            while true {
                                let (status, _) = try await call(
                                    bases[attempt % 2], "POST", "/api/checkout", shopper.token, "fleet-\(index)", body)
                                if status != 409 { return (index, status) }
                                try await Task.sleep(for: .milliseconds(50))
                            }
                        }
                    }
                }
                return try await group.reduce(into: [(Int, Int)]()) { $0.append($1) }
            }
            #expect(outcomes.allSatisfy { $0.1 == 201 })
        } check: { database in
            let orders = try await Self.orderAttempts(database)
            #expect(orders.count == shopperCount)
            #expect(Set(orders) == Set(try await Self.charges(database)))
        }
    }

    @Test("64 checkouts of one basket with 64 different keys across two store serve processes: one payment")
    func differentKeysAcrossProcesses() async throws {
        try await Self.withTwoProcesses { bases, call in
            let (_, created) = try await call(bases[0], "POST", "/api/sessions", nil, nil, nil)
            let token = try JSONDecoder().decode(SessionResponse.self, from: created).token
            for product in [1, 2, 3] {
                _ = try await call(bases[1], "PUT", "/api/basket/items/\(product)", token, nil, #"{"quantity":1}"#)
            }
            let (_, basket) = try await call(bases[0], "GET", "/api/basket", token, nil, nil)
            let total = try StoreJSON.decoder.decode(BasketBody.self, from: basket).total.amountText
            let body =
                #"{"payment_method":{"type":"payment_link"},"expected_total":{"amount":"\#(total)","currency":"EUR"}}"#
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<64 {
                    group.addTask {
                        try await call(bases[index % 2], "POST", "/api/checkout", token, "tap-\(index)", body).0
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 1)
            #expect(statuses.allSatisfy { [201, 409, 422].contains($0) }, "\(statuses)")
        } check: { database in
            let orders = try await Self.orderAttempts(database)
            #expect(orders.count == 1)
            #expect(Set(orders) == Set(try await Self.charges(database)))
        }
    }

    @Test("a checkout whose server is killed -9 mid-charge is answered by the other server at once")
    func takeoverWhenAServerDies() async throws {
        guard let base = TestPostgres.required() else { return }
        try await TestPostgres.withFreshSchema(base, prefix: "takeover") { url in
            let database = try await StoreDatabase.open(url: url, hasher: .minimal, poolSize: 2)
            defer { Task { await database.close() } }
            let arguments = ["serve", "--port", "0", "--database", url, "--drain-seconds", "0"]
            let dying = try StoreProcess.launch(arguments)
            let surviving = try StoreProcess.launch(arguments)
            defer {
                if dying.process.isRunning { dying.process.terminate() }
                if surviving.process.isRunning { surviving.process.terminate() }
            }
            var bases: [URL] = []
            for process in [dying, surviving] {
                let line = try await StoreProcess.firstLine(of: process)
                bases.append(try #require(URL(string: String(line.dropFirst("listening on ".count)))))
            }
            let (_, created) = await ChaosTests.send(bases[0], "POST", "/api/sessions", token: nil)
            let token = try JSONDecoder().decode(SessionResponse.self, from: created).token
            _ = await ChaosTests.send(bases[0], "PUT", "/api/basket/items/3", token: token, json: #"{"quantity":2}"#)
            let (_, basket) = await ChaosTests.send(bases[0], "GET", "/api/basket", token: token)
            let total = try StoreJSON.decoder.decode(BasketBody.self, from: basket).total.amountText
            let body =
                #"{"payment_method":{"type":"card","token":"tok_slow"},"expected_total":{"amount":"\#(total)","currency":"EUR"}}"#

            // The first server takes the checkout, charges (tok_slow answers after a second) and
            // dies with the charge made and its answer not yet come.
            let dyingBase = bases[0]
            let first = Task {
                await ChaosTests.send(dyingBase, "POST", "/api/checkout", token: token, key: "k1", json: body)
            }
            let attempt = try #require(
                try await eventuallyValue {
                    try await database.sql.read { connection in
                        try connection.queryFirst(
                            """
                            SELECT a.id, a.holder, a.lease_expires_at FROM payment_attempts a
                            JOIN sandbox_charges c ON c.key = a.id WHERE a.state = 'pending'
                            """)
                    }
                })
            Foundation.kill(dying.process.processIdentifier, SIGKILL)
            _ = try await StoreProcess.waitForExit(dying)
            _ = await first.value
            let leaseEnds = Date(
                timeIntervalSince1970: TimeInterval(try attempt.decode("lease_expires_at", as: Int64.self)) / 1_000)
            let holder = try #require(try attempt.decode("holder", as: Int64?.self))
            // PostgreSQL ends the dead server's sessions, and its presence lock with them, as soon
            // as it reads the closed sockets.
            #expect(
                try await eventually {
                    try await database.sql.read { connection in
                        try connection.queryFirst(
                            """
                            SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory'
                              AND classid = \(Int64(ServerPresence.lockClass)) AND objid = \(holder) AND objsubid = 2
                            """)?.decode("n", as: Int64.self) == 0
                    }
                })

            // The shopper's retry, with the same key, reaches the other server: answered with the
            // order at once — not after the lease the dead server took, nor at the next reconciliation.
            let answer = await ChaosTests.send(bases[1], "POST", "/api/checkout", token: token, key: "k1", json: body)
            let answeredAt = Date()
            #expect(answer.0 == 201)
            #expect(answeredAt < leaseEnds, "taken over because its server was gone, not because the lease ran out")
            let order = try StoreJSON.makeDecoder().decode(OrderBody.self, from: answer.1)
            let attemptID = try attempt.decode("id", as: String.self)
            #expect(try await Self.orderAttempts(database) == [attemptID])
            #expect(try await Self.charges(database) == [attemptID], "charged once")
            #expect(order.status == "paid")

            surviving.process.terminate()
            #expect(try await StoreProcess.waitForExit(surviving) == 0)
        }
    }
}
