import Foundation
import StoreServerTestSupport
import StoreTestSupport
import TestWaiting
import Testing

/// `/readyz` follows the database (docs/BEHAVIOUR.md §15.1): a store on a PostgreSQL server of
/// its own, which is stopped and started again under it.
@Suite("Readiness through a database outage", .serialized) struct ReadinessOutageTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/postgres-cluster.sh").path

    /// Runs the cluster script; its standard output. Through ``ShortProgram``: the PostgreSQL
    /// server the script starts is a daemon, which Foundation's `Process` would wait for.
    static func cluster(_ arguments: [String]) async throws -> String {
        let (status, output) = try await ShortProgram.run("/bin/bash", [script] + arguments, limit: .seconds(60))
        guard status == 0 else { throw TestError("postgres-cluster.sh \(arguments) failed") }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("readiness is 503 database_unavailable while PostgreSQL is down and 200 once it is back; health stays 200")
    func readinessFollowsTheDatabase() async throws {
        // Only where the PostgreSQL tests run (make test and CI start a server for them).
        guard TestPostgres.required() != nil else { return }
        let directory = "/tmp/store-outage-\(UUID().uuidString.prefix(8))"
        let port = String(try ChaosTests.freePort())
        let url = try await Self.cluster(["start", directory, port])
        do {
            try await Self.outage(url: url, directory: directory, port: port)
        } catch {
            _ = try? await Self.cluster(["stop", directory])
            throw error
        }
        _ = try await Self.cluster(["stop", directory])
    }

    static func outage(url: String, directory: String, port: String) async throws {

        let running = try StoreProcess.launch(["serve", "--port", "0", "--drain-seconds", "0", "--database", url])
        defer { if running.process.isRunning { running.process.terminate() } }
        let base = String(try await StoreProcess.firstLine(of: running).dropFirst("listening on ".count))
        func status(_ path: String) async -> Int {
            guard let base = URL(string: base) else { return 0 }
            return (try? await WireHTTP.send(base, "GET", path))?.0 ?? 0
        }
        #expect(await status("/readyz") == 200)

        _ = try await Self.cluster(["pause", directory])
        #expect(
            try await eventually(timeout: .seconds(20), every: .milliseconds(100)) { await status("/readyz") == 503 })
        #expect(await status("/healthz") == 200)

        _ = try await Self.cluster(["resume", directory, port])
        #expect(
            try await eventually(timeout: .seconds(20), every: .milliseconds(100)) { await status("/readyz") == 200 })
        #expect(await status("/api/products") == 200)
        running.process.terminate()
        #expect(try await StoreProcess.waitForExit(running) == 0)
    }
}
