import Foundation
import StoreServerTestSupport
import StoreTestSupport
import TestWaiting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `store` executable, run as a separate process (docs/BEHAVIOUR.md §11).
@Suite("store command", .serialized) struct CommandLineTests {
    @Test func helpExplainsEveryCommandAndOption() async throws {
        let running = try StoreProcess.launch(["--help"])
        #expect(try await StoreProcess.waitForExit(running) == 0)
        let text = running.stdout.text
        for word in [
            "store serve", "--host", "--port", "--database", "sqlite:", "postgres://", "STORE_DATABASE_URL", "migrate",
            "--connections-per-address",
        ] {
            #expect(text.contains(word), "help mentions \(word)")
        }
    }

    @Test func badArgumentsAreAUsageError() async throws {
        for arguments in [
            ["serve", "--port", "eighty"], ["serve", "--bogus"], ["fly"], ["serve", "--database", "mysql://x"],
            ["serve", "--connections-per-address", "0"],
        ] {
            let running = try StoreProcess.launch(arguments)
            #expect(try await StoreProcess.waitForExit(running) == 64, "\(arguments)")
            #expect(running.stderr.text.contains("store --help"))
        }
    }

    @Test(
        "serves on a free port, announces it; on SIGTERM not ready at once, still serving while it drains, then exit 0")
    func servesOnAFreePortAnnouncesItAndDrainsOnSIGTERM() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = "sqlite:\(directory.appendingPathComponent("nested/store.sqlite").path)"
        let running = try StoreProcess.launch(
            ["serve", "--port", "0", "--drain-seconds", "3"], environment: ["STORE_DATABASE_URL": database])
        defer { if running.process.isRunning { running.process.terminate() } }

        let line = try await StoreProcess.firstLine(of: running)
        #expect(line.hasPrefix("listening on http://127.0.0.1:"))
        let port = try #require(Int(line.split(separator: ":").last ?? ""))
        #expect(port > 0 && port != 8080)

        let url = try #require(URL(string: "http://127.0.0.1:\(port)/api/products"))
        let (data, response) = try await URLSession.shared.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(data.count > 1_000)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("nested/store.sqlite").path))

        func status(_ path: String) async -> Int? {
            guard let url = URL(string: "http://127.0.0.1:\(port)\(path)"),
                let (_, response) = try? await URLSession.shared.data(from: url)
            else { return nil }
            return (response as? HTTPURLResponse)?.statusCode
        }
        #expect(await status("/readyz") == 200)
        #expect(await status("/healthz") == 200)

        running.process.terminate()  // SIGTERM
        // Not ready at once, while still serving: a load balancer sends new requests elsewhere.
        _ = try await eventually(every: .milliseconds(20)) { await status("/readyz") == 503 }
        #expect(await status("/healthz") == 200)
        #expect(await status("/api/products") == 200)
        #expect(running.process.isRunning)
        #expect(try await StoreProcess.waitForExit(running) == 0)
        #expect(running.stderr.text.contains("draining"))
        #expect(running.stderr.text.contains("\"route\":\"/api/products\""))
        #expect(running.stderr.text.contains("stopped"))
    }

    @Test("every serve option as an environment variable, the command line winning; a bad one named")
    func optionsFromTheEnvironment() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-env-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = try StoreProcess.launch(["serve"], environment: ["STORE_DRAIN_SECONDS": "forever"])
        #expect(try await StoreProcess.waitForExit(bad) == 64)
        #expect(bad.stderr.text.contains("STORE_DRAIN_SECONDS: --drain-seconds must be a number"))

        let running = try StoreProcess.launch(
            ["serve", "--port", "0"],
            environment: [
                "STORE_PORT": "1", "STORE_HOST": "127.0.0.1", "STORE_NO_DEMO_DATA": "true", "STORE_DRAIN_SECONDS": "0",
                "STORE_DATABASE_URL": "sqlite:\(directory.appendingPathComponent("env.sqlite").path)",
            ])
        defer { if running.process.isRunning { running.process.terminate() } }
        let line = try await StoreProcess.firstLine(of: running)
        let port = try #require(Int(line.split(separator: ":").last ?? ""))
        #expect(port > 1, "--port 0 on the command line wins over STORE_PORT=1")
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/api/products"))
        let (data, _) = try await URLSession.shared.data(from: url)
        #expect(String(decoding: data, as: UTF8.self) == "[]", "STORE_NO_DEMO_DATA: an empty shop")
        running.process.terminate()
        #expect(try await StoreProcess.waitForExit(running) == 0)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("env.sqlite").path))
    }

    @Test("X-Forwarded-For counts only from a trusted proxy: a forged one changes no limit")
    func forwardedForOnlyFromTrustedProxies() async throws {
        /// The statuses, and how many whole seconds the requests took (rounded up).
        func newSessions(trusting: [String], count: Int) async throws -> (statuses: [Int], seconds: Int) {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "store-xff-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let database = "sqlite:\(directory.appendingPathComponent("store.sqlite").path)"
            let running = try StoreProcess.launch(
                ["serve", "--port", "0", "--drain-seconds", "0", "--database", database] + trusting)
            defer { if running.process.isRunning { running.process.terminate() } }
            let base = String(try await StoreProcess.firstLine(of: running).dropFirst("listening on ".count))
            var statuses: [Int] = []
            let start = ContinuousClock.now
            for index in 0..<count {
                var request = URLRequest(url: try #require(URL(string: base + "/api/sessions")))
                request.httpMethod = "POST"
                request.setValue("198.51.100.\(index % 250)", forHTTPHeaderField: "X-Forwarded-For")
                let (_, response) = try await URLSession.shared.uncancelledData(for: request)
                statuses.append((response as? HTTPURLResponse)?.statusCode ?? 0)
            }
            let elapsed = ContinuousClock.now - start
            running.process.terminate()
            _ = try await StoreProcess.waitForExit(running)
            return (statuses, Int(elapsed.components.seconds) + 1)
        }
        // 130 new shoppers from one address pass its burst of 120 — unless a trusted proxy says
        // each came from another client. The burst refills at 60 a minute, so a slow run lets one
        // more through for each second it took.
        let forged = try await newSessions(trusting: [], count: 130)
        let created = forged.statuses.filter { $0 == 201 }.count
        #expect(forged.statuses.allSatisfy { $0 == 201 || $0 == 429 })
        #expect(
            created >= 120 && created <= 120 + forged.seconds,
            "a forged X-Forwarded-For is ignored: \(created) created in \(forged.seconds) s")
        let proxied = try await newSessions(trusting: ["--trust-proxy", "127.0.0.1/32"], count: 130)
        #expect(proxied.statuses.allSatisfy { $0 == 201 }, "behind a trusted proxy each client has its own limit")
    }

    @Test("a real shop: --no-demo-data serves an empty store; store staff add gives it its first owner")
    func aRealShop() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-real-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = "sqlite:\(directory.appendingPathComponent("shop.sqlite").path)"

        let short = try StoreProcess.launch(
            [
                "staff", "add", "--email", "me@myshop.test", "--role", "owner", "--password-stdin", "--database",
                database,
            ],
            input: "too short\n")
        #expect(try await StoreProcess.waitForExit(short) == 1)
        #expect(short.stderr.text.contains("at least 12 characters"))
        let added = try StoreProcess.launch(
            [
                "staff", "add", "--email", "Me@MyShop.test", "--role", "owner", "--password-stdin", "--database",
                database,
            ],
            input: "a long enough password\n")
        #expect(try await StoreProcess.waitForExit(added) == 0)
        #expect(added.stdout.text == "added me@myshop.test (owner)\n")
        let noTerminal = try StoreProcess.launch(
            ["staff", "add", "--email", "two@myshop.test", "--role", "catalog", "--database", database], input: "")
        #expect(try await StoreProcess.waitForExit(noTerminal) == 1)
        #expect(noTerminal.stderr.text.contains("--password-stdin"))

        let running = try StoreProcess.launch([
            "serve", "--port", "0", "--no-demo-data", "--database", database, "--drain-seconds", "0",
        ])
        defer { if running.process.isRunning { running.process.terminate() } }
        let line = try await StoreProcess.firstLine(of: running)
        let base = String(line.dropFirst("listening on ".count))
        func call(_ method: String, _ path: String, _ json: String? = nil) async throws -> (Int, String) {
            var request = URLRequest(url: try #require(URL(string: base + path)))
            request.httpMethod = method
            request.httpBody = json.map { Data($0.utf8) }
            let (data, response) = try await URLSession.shared.uncancelledData(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
        }
        #expect(try await call("GET", "/api/products") == (200, "[]"))
        #expect(try await call("GET", "/api/categories") == (200, "[]"))
        let demo = try await call(
            "POST", "/api/admin/sessions", #"{"email":"owner@onlinestore.test","password":"owner-demo-password"}"#)
        #expect(demo.0 == 401)
        let customer = try await call(
            "POST", "/api/login", #"{"email":"pro@onlinestore.test","password":"pro-demo-password"}"#)
        #expect(customer.0 == 401)
        let owner = try await call(
            "POST", "/api/admin/sessions", #"{"email":"me@myshop.test","password":"a long enough password"}"#)
        #expect(owner.0 == 201)
        #expect(owner.1.contains(#""role":"owner""#))
        running.process.terminate()
        #expect(try await StoreProcess.waitForExit(running) == 0)
    }
}
