import Foundation
import PostgresDriver
import StoreSQL
import Testing

/// Where the PostgreSQL tests find their server: `STORE_TEST_POSTGRES_URL`, as printed by
/// `scripts/postgres-cluster.sh start DIR PORT`.
enum PostgresTestEnvironment {
    static let url: String? = {
        guard let url = ProcessInfo.processInfo.environment["STORE_TEST_POSTGRES_URL"], !url.isEmpty else {
            return nil
        }
        return url
    }()

    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    static var isAvailable: Bool { url != nil }

    static let skipReason: Comment =
        "STORE_TEST_POSTGRES_URL is not set; start a server with scripts/postgres-cluster.sh start DIR PORT"

    /// The server URL, or a recorded failure (only reachable when a suite is enabled without it).
    static func requiredURL() throws -> String {
        try #require(url, "STORE_TEST_POSTGRES_URL is not set")
    }
}

/// Fails the run in CI when PostgreSQL is missing; elsewhere the PostgreSQL suites are skipped.
@Suite struct PostgresAvailabilityTests {
    @Test func postgresIsConfiguredWhenRunningInCI() {
        if PostgresTestEnvironment.isCI && !PostgresTestEnvironment.isAvailable {
            Issue.record(
                """
                PostgreSQL is required in CI: set STORE_TEST_POSTGRES_URL \
                (scripts/postgres-cluster.sh start DIR PORT prints it)
                """)
        }
    }
}

/// A schema of its own for one test, so that tests can run in parallel and again and again.
///
/// ``url`` points at the same database with `search_path` set to the schema, so unqualified table
/// names resolve there on every connection opened with it.
struct TestSchema: Sendable {
    let name: String
    let url: String

    /// Creates a fresh, uniquely named schema.
    static func create() throws -> TestSchema {
        let base = try PostgresTestEnvironment.requiredURL()
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PostgresConnection(url: base)
        try admin.executeScript("CREATE SCHEMA \(name)")
        let separator = base.contains("?") ? "&" : "?"
        return TestSchema(name: name, url: base + separator + "options=-c%20search_path%3D\(name)")
    }

    /// A connection whose unqualified names resolve in this schema.
    func connect(statementCacheCapacity: Int = 128) throws -> PostgresConnection {
        try PostgresConnection(url: url, statementCacheCapacity: statementCacheCapacity)
    }

    /// Drops the schema and everything in it.
    func drop() {
        guard let base = PostgresTestEnvironment.url, let admin = try? PostgresConnection(url: base) else { return }
        try? admin.executeScript("DROP SCHEMA IF EXISTS \(name) CASCADE")
    }
}

/// Runs `body` with a fresh schema and drops the schema afterwards, whatever happens.
func withTestSchema<T>(_ body: (TestSchema) async throws -> T) async throws -> T {
    let schema = try await onOwnThread { try TestSchema.create() }
    do {
        let result = try await body(schema)
        _ = try? await onOwnThread { schema.drop() }
        return result
    } catch {
        _ = try? await onOwnThread { schema.drop() }
        throw error
    }
}

/// Runs a blocking call on a thread of its own, keeping it off the Swift concurrency pool.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    let result: Result<T, any Error> = await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: Result { try work() }) }.start()
    }
    return try result.get()
}

/// A counter shared between threads.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0  // guarded by `lock`

    /// Adds one and returns the new value.
    @discardableResult
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// Lets `parties` threads wait until all of them have arrived (or a timeout passes).
final class ThreadBarrier: @unchecked Sendable {
    private let condition = NSCondition()
    private let parties: Int
    private var arrived = 0  // guarded by `condition`

    init(parties: Int) {
        self.parties = parties
    }

    /// Waits for every party; returns `false` when `timeout` passes first.
    @discardableResult
    func arriveAndWait(timeout: TimeInterval = 10) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        if arrived >= parties {
            condition.broadcast()
            return true
        }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while arrived < parties {
            if !condition.wait(until: deadline) { return arrived >= parties }
        }
        return true
    }
}

/// An error a test's closure throws on purpose.
struct IntentionalError: Error, Equatable {}

/// Runs `body` with a ``PostgresDatabase`` on a fresh schema, then closes it and drops the schema.
func withTestDatabase<T>(
    _ configuration: PostgresDatabase.Configuration = PostgresDatabase.Configuration(poolSize: 4),
    _ body: (PostgresDatabase, TestSchema) async throws -> T
) async throws -> T {
    try await withTestSchema { schema in
        let database = try await PostgresDatabase(url: schema.url, configuration: configuration)
        do {
            let result = try await body(database, schema)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }
}
