import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a short-lived program to its end and returns its exit status and standard output.
///
/// Foundation's `Process` learns that a child ended when a socket it passed to the child closes.
/// A child that starts a daemon (`tmux new-session -d` starts the tmux server) hands that socket
/// on, so `waitUntilExit()` never returns (swift-corelibs-foundation issue 4795). This spawns the
/// program itself, closes every inherited descriptor above standard error in the child, and reaps
/// it with `waitpid`, giving up after `limit`.
public enum ShortProgram {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func run(
        _ path: String, _ arguments: [String], limit: Duration = .seconds(20)
    ) async throws -> (
        status: Int32, output: String
    ) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("program-\(UUID().uuidString)")
            .path
        defer { unlink(outputPath) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        closeInheritedDescriptors(&actions)

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw Failure(description: "\(path) could not start: \(String(cString: strerror(spawned)))")
        }

        let deadline = ContinuousClock.now + limit
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard ContinuousClock.now < deadline else {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                throw Failure(description: "\(path) \(arguments) did not end within \(limit)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // The exit code when it exited normally, else 128 + the signal that ended it.
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, output)
    }

    /// Asks the child to close every descriptor from 3 up (glibc 2.34 and later), so a daemon it
    /// starts holds none of the test process's sockets or pipes.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
}
