import Foundation
import StoreDatabase
import Testing

/// The backends the store's suites run against.
public enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    public var testDescription: String { rawValue }
}

/// The PostgreSQL server the tests use: `STORE_TEST_POSTGRES_URL`, which `make test` sets after
/// starting a throwaway cluster.
public enum TestPostgres {
    public static var url: String? {
        ProcessInfo.processInfo.environment["STORE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The server's URL; without one, a recorded failure in CI (`CI=true`) and a visible skip
    /// elsewhere (`nil`).
    public static func required() -> String? {
        if let url { return url }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("PostgreSQL is required in CI: STORE_TEST_POSTGRES_URL is not set")
        } else {
            print("skipped on PostgreSQL: STORE_TEST_POSTGRES_URL is not set (make test starts a server)")
        }
        return nil
    }

    /// Runs `body` with the URL of a fresh schema of its own on the test server (so suites run in
    /// parallel), dropped afterwards.
    public static func withFreshSchema(
        _ base: String, prefix: String = "test", _ body: (String) async throws -> Void
    ) async throws {
        let schema = "\(prefix)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try await administer(base, "CREATE SCHEMA \(schema)")
        let url = base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
        do {
            try await body(url)
        } catch {
            try? await administer(base, "DROP SCHEMA \(schema) CASCADE")
            throw error
        }
        try await administer(base, "DROP SCHEMA \(schema) CASCADE")
    }

    private static func administer(_ url: String, _ script: String) async throws {
        let admin = try await StoreDatabase.openUnmigrated(url: url, poolSize: 1)
        do {
            _ = try await admin.sql.write { try $0.executeScript(script) }
        } catch {
            await admin.close()
            throw error
        }
        await admin.close()
    }
}

/// A fresh temporary directory for `body`, removed afterwards.
public func withTemporaryDirectory(
    _ prefix: String, _ body: (URL) async throws -> Void
) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(directory)
}
