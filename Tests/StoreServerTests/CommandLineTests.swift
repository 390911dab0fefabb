import Foundation
import TestWaiting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `store` executable, run as a separate process (docs/BEHAVIOUR.md §11).
@Suite("store command", .serialized) struct CommandLineTests {
    /// The `store` binary built beside the test bundle.
    static var storeBinary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("store")
    }

    final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        private var ended = false

        /// Adds a chunk; an empty chunk means the other end closed the pipe.
        func append(_ chunk: Data) {
            lock.lock()
            if chunk.isEmpty { ended = true } else { data.append(chunk) }
            lock.unlock()
        }

        var isEnded: Bool {
            lock.lock()
            defer { lock.unlock() }
            return ended
        }

        var text: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: data, as: UTF8.self)
        }
    }

    struct Running {
        let process: Process
        let stdout: Output
        let stderr: Output
    }

    static func launch(
        _ arguments: [String], environment: [String: String] = [:], input: String? = nil
    ) throws
        -> Running
    {
        let process = Process()
        process.executableURL = storeBinary
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged.removeValue(forKey: "STORE_DATABASE_URL")
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
        let stdout = Output()
        let stderr = Output()
        let outPipe = Pipe()
        let errPipe = Pipe()
        outPipe.fileHandleForReading.readabilityHandler = { stdout.append($0.availableData) }
        errPipe.fileHandleForReading.readabilityHandler = { stderr.append($0.availableData) }
        process.standardOutput = outPipe
        process.standardError = errPipe
        let inPipe = Pipe()
        if input != nil { process.standardInput = inPipe }
        try process.run()
        if let input {
            inPipe.fileHandleForWriting.write(Data(input.utf8))
            try inPipe.fileHandleForWriting.close()
        }
        return Running(process: process, stdout: stdout, stderr: stderr)
    }

    /// Waits (up to 60 s) for the first line on standard output.
    static func firstLine(of running: Running) async throws -> String {
        let line = try await eventuallyValue(timeout: .seconds(60), every: .milliseconds(20)) { () -> String? in
            if let newline = running.stdout.text.firstIndex(of: "\n") { return String(running.stdout.text[..<newline]) }
            return running.process.isRunning ? nil : ""
        }
        if let line, !line.isEmpty { return line }
        throw TestError("no first line; stderr: \(running.stderr.text)")
    }

    /// Waits (up to 30 s) for the process to exit and, when given, for its output to be read to the end.
    static func waitForExit(_ process: Process, output: [Output] = []) async throws -> Int32 {
        #expect(try await eventually(timeout: .seconds(30), every: .milliseconds(20)) { !process.isRunning })
        _ = try await eventually { output.allSatisfy(\.isEnded) }
        return process.terminationStatus
    }

    static func waitForExit(_ running: Running) async throws -> Int32 {
        try await waitForExit(running.process, output: [running.stdout, running.stderr])
    }

    @Test func helpExplainsEveryCommandAndOption() async throws {
        let running = try Self.launch(["--help"])
        #expect(try await Self.waitForExit(running) == 0)
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
            let running = try Self.launch(arguments)
            #expect(try await Self.waitForExit(running) == 64, "\(arguments)")
            #expect(running.stderr.text.contains("store --help"))
        }
    }

    @Test func servesOnAFreePortAnnouncesItAndStopsCleanlyOnSIGTERM() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = "sqlite:\(directory.appendingPathComponent("nested/store.sqlite").path)"
        let running = try Self.launch(["serve", "--port", "0"], environment: ["STORE_DATABASE_URL": database])
        defer { if running.process.isRunning { running.process.terminate() } }

        let line = try await Self.firstLine(of: running)
        #expect(line.hasPrefix("listening on http://127.0.0.1:"))
        let port = try #require(Int(line.split(separator: ":").last ?? ""))
        #expect(port > 0 && port != 8080)

        let url = try #require(URL(string: "http://127.0.0.1:\(port)/api/products"))
        let (data, response) = try await URLSession.shared.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(data.count > 1_000)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("nested/store.sqlite").path))

        running.process.terminate()  // SIGTERM
        #expect(try await Self.waitForExit(running) == 0)
        #expect(running.stderr.text.contains("\"route\":\"/api/products\""))
        #expect(running.stderr.text.contains("stopped"))
    }
}
