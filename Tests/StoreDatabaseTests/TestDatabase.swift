import CheckoutKit
import Foundation
import StoreCrypto
import StoreDatabase
import StoreSQL
import Testing

/// The backends every repository test runs against.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// The PostgreSQL server the tests use, from `STORE_TEST_POSTGRES_URL` (set by `make test`).
    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["STORE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }
}

/// A fresh, migrated (and optionally seeded) store database on `backend`, removed afterwards:
/// a new SQLite file in a temporary directory, or a new schema on the test PostgreSQL server.
///
/// On PostgreSQL without a server: a failure in CI, a visible skip elsewhere.
func withStoreDatabase(
    _ backend: Backend, seeded: Bool = true, _ body: (StoreDatabase) async throws -> Void
) async throws {
    switch backend {
    case .sqlite:
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try await StoreDatabase.open(
            url: "sqlite:\(directory.appendingPathComponent("store.sqlite").path)", seed: seeded,
            hasher: .minimal)
        do {
            try await body(database)
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    case .postgres:
        guard let url = Backend.postgresURL else {
            if Backend.isCI {
                Issue.record("PostgreSQL is required in CI: STORE_TEST_POSTGRES_URL is not set")
            } else {
                print("skipped on PostgreSQL: STORE_TEST_POSTGRES_URL is not set (make test starts a server)")
            }
            return
        }
        let schema = "test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try await PostgresTestSchema.create(schema, url: url)
        let database = try await StoreDatabase.open(
            url: PostgresTestSchema.url(url, searchPath: schema), seed: seeded, hasher: .minimal, poolSize: 4)
        do {
            try await body(database)
        } catch {
            await database.close()
            try? await PostgresTestSchema.drop(schema, url: url)
            throw error
        }
        await database.close()
        try await PostgresTestSchema.drop(schema, url: url)
    }
}

/// Creates and drops one schema per test, so tests run in parallel on one server.
enum PostgresTestSchema {
    static func url(_ base: String, searchPath schema: String) -> String {
        let separator = base.contains("?") ? "&" : "?"
        return base + separator + "options=-csearch_path%3D\(schema)"
    }

    static func create(_ schema: String, url: String) async throws {
        let admin = try await StoreDatabase.openUnmigrated(url: url, poolSize: 1)
        try await admin.sql.write { connection in try connection.executeScript("CREATE SCHEMA \(schema)") }
        await admin.close()
    }

    static func drop(_ schema: String, url: String) async throws {
        let admin = try await StoreDatabase.openUnmigrated(url: url, poolSize: 1)
        try await admin.sql.write { connection in try connection.executeScript("DROP SCHEMA \(schema) CASCADE") }
        await admin.close()
    }
}

func eur(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .eur) }

func quantity(_ value: Int) throws -> Quantity { try #require(Quantity(value)) }

let testNow = Date(timeIntervalSince1970: 1_796_213_310)

struct TestFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A promotion code the test spells out.
func code(_ text: String) throws -> PromotionCode {
    guard let code = PromotionCode(text) else { throw TestFailure("\(text) is not a promotion code") }
    return code
}
