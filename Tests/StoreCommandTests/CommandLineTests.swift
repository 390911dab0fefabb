import Foundation
import StoreServerTestSupport
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

    @Test func servesOnAFreePortAnnouncesItAndStopsCleanlyOnSIGTERM() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = "sqlite:\(directory.appendingPathComponent("nested/store.sqlite").path)"
        let running = try StoreProcess.launch(["serve", "--port", "0"], environment: ["STORE_DATABASE_URL": database])
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

        running.process.terminate()  // SIGTERM
        #expect(try await StoreProcess.waitForExit(running) == 0)
        #expect(running.stderr.text.contains("\"route\":\"/api/products\""))
        #expect(running.stderr.text.contains("stopped"))
    }
}
