import Foundation
import TestWaiting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `store` executable run as a separate process, as the command-line, chaos and fleet suites
/// run it: launched with its output captured, its first line awaited, its exit awaited.
public enum StoreProcess {
    /// The `store` binary built beside the test bundle.
    public static var storeBinary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("store")
    }

    public final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        private var ended = false

        /// Adds a chunk; an empty chunk means the other end closed the pipe.
        public func append(_ chunk: Data) {
            lock.lock()
            if chunk.isEmpty { ended = true } else { data.append(chunk) }
            lock.unlock()
        }

        public var isEnded: Bool {
            lock.lock()
            defer { lock.unlock() }
            return ended
        }

        public var text: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: data, as: UTF8.self)
        }
    }

    public struct Running {
        public let process: Process
        public let stdout: Output
        public let stderr: Output
    }

    public static func launch(
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
        process.standardOutput = outPipe
        process.standardError = errPipe
        let inPipe = Pipe()
        if input != nil { process.standardInput = inPipe }
        try process.run()
        drain(outPipe.fileHandleForReading, into: stdout)
        drain(errPipe.fileHandleForReading, into: stderr)
        if let input {
            inPipe.fileHandleForWriting.write(Data(input.utf8))
            try inPipe.fileHandleForWriting.close()
        }
        return Running(process: process, stdout: stdout, stderr: stderr)
    }

    /// Reads `handle` to its end on a thread of its own, with blocking reads.
    ///
    /// Not `readabilityHandler`: on Linux it arms a libdispatch read source whose teardown can race
    /// the descriptor's close and crash the whole test process in `_dispatch_event_loop_drain`
    /// (swift-corelibs-libdispatch#949). A blocking read registers nothing with the event loop.
    private static func drain(_ handle: FileHandle, into output: Output) {
        let thread = Thread {
            // The handle is kept open, and so its descriptor, until the reading ends.
            // read(2) answers what the pipe holds as soon as it holds something; 0 is the end (the
            // child closed its end), and an error other than EINTR ends the reading too.
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    output.append(Data(buffer[..<count]))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            output.append(Data())
        }
        thread.name = "store-process-output"
        thread.start()
    }

    /// Waits (up to 60 s) for the first line on standard output.
    public static func firstLine(of running: Running) async throws -> String {
        let line = try await eventuallyValue(timeout: .seconds(60), every: .milliseconds(20)) { () -> String? in
            if let newline = running.stdout.text.firstIndex(of: "\n") { return String(running.stdout.text[..<newline]) }
            return running.process.isRunning ? nil : ""
        }
        if let line, !line.isEmpty { return line }
        throw TestError("no first line; stderr: \(running.stderr.text)")
    }

    /// Waits (up to 30 s) for the process to exit and, when given, for its output to be read to the end.
    public static func waitForExit(_ process: Process, output: [Output] = []) async throws -> Int32 {
        #expect(try await eventually(timeout: .seconds(30), every: .milliseconds(20)) { !process.isRunning })
        _ = try await eventually { output.allSatisfy(\.isEnded) }
        return process.terminationStatus
    }

    public static func waitForExit(_ running: Running) async throws -> Int32 {
        try await waitForExit(running.process, output: [running.stdout, running.stderr])
    }
}
