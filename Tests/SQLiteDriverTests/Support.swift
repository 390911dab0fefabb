import Dispatch
import Foundation
import SQLiteDriver
import StoreSQL
import TestWaiting
import Testing

/// Every driver test, run one at a time: some count the process's open file descriptors, and the
/// batching tests hold the writer thread on purpose.
@Suite(.serialized) struct SQLiteDriverTests {}

/// An error a test's closure throws on purpose.
struct DeliberateError: Error, Equatable {
    var tag = "deliberate"
}

/// Runs `body` with a fresh empty directory, deleted afterwards whatever happens.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("SQLiteDriverTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory.path)
}

/// Runs `body` with a database opened in a fresh directory, closed (and deleted) afterwards.
func withDatabase<T>(
    _ configuration: SQLiteDatabase.Configuration = SQLiteDatabase.Configuration(),
    _ body: (SQLiteDatabase, String) async throws -> T
) async throws -> T {
    try await withTemporaryDirectory { directory in
        let path = directory + "/store.sqlite"
        let database = try await SQLiteDatabase.open(path: path, configuration: configuration)
        do {
            let result = try await body(database, path)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }
}

/// Creates the table most tests use: `items(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)`.
func createItems(_ database: SQLiteDatabase) async throws {
    try await database.write { connection in
        try connection.executeScript("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);")
    }
}

/// The names in `items`, in id order.
func itemNames(_ database: SQLiteDatabase) async throws -> [String] {
    try await database.read { connection in
        try connection.query("SELECT name FROM items ORDER BY id").map { try $0.decode("name", as: String.self) }
    }
}

/// Holds the writer thread inside a write job until ``release()``, so that writes queued meanwhile are
/// all taken by the writer's next batch.
final class WriterGate: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let opened = DispatchSemaphore(value: 0)
    private let task: Task<Void, any Error>

    /// Queues the holding write and waits until the writer is inside it.
    init(_ database: SQLiteDatabase) async throws {
        let entered = entered
        let opened = opened
        task = Task {
            try await database.write { _ in
                entered.signal()
                opened.wait()
            }
        }
        let isHeld = try await eventually { entered.wait(timeout: .now()) == .success }
        try #require(isHeld, "the writer never ran the holding job")
    }

    /// Lets the writer go on, and waits until the holding write has committed.
    func release() async throws {
        opened.signal()
        try await task.value
    }
}

/// A counter that closures running on the driver's threads can bump.
///
/// `@unchecked Sendable`: `count` is read and written only while `lock` is held.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.withLock { count += 1 }
    }

    var value: Int { lock.withLock { count } }
}

/// How many file descriptors this process has open on files under `directory` — precise even
/// while other tests in the process open and close files of their own.
func openFileDescriptorCount(under directory: String) throws -> Int {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { descriptor in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
        else { return false }
        return target.hasPrefix(directory)
    }.count
}
