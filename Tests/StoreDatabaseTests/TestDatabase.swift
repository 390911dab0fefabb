import CheckoutKit
import Concurrency
import Foundation
import StoreCrypto
import StoreDatabase
import StoreSQL
import StoreTestSupport
import TestWaiting
import Testing

/// A fresh, migrated (and optionally seeded) store database on `backend`, closed afterwards: a new
/// SQLite file in a temporary directory, or a new schema on the test PostgreSQL server.
func withStoreDatabase(
    _ backend: Backend, seeded: Bool = true, _ body: (StoreDatabase) async throws -> Void
) async throws {
    func run(_ url: String) async throws {
        let database = try await StoreDatabase.open(url: url, seed: seeded, hasher: .minimal, poolSize: 4)
        do {
            try await body(database)
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }
    switch backend {
    case .sqlite:
        try await withTemporaryDirectory("store-test") { directory in
            try await run("sqlite:\(directory.appendingPathComponent("store.sqlite").path)")
        }
    case .postgres:
        guard let base = TestPostgres.required() else { return }
        try await TestPostgres.withFreshSchema(base) { url in try await run(url) }
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

/// A write transaction that ran `statement` and stays open on the driver's thread, holding what the
/// statement locked, until ``finish()`` — as a slow transaction would. It commits then, or rolls
/// back when opened with `rollingBack`.
final class HeldTransaction: Sendable {
    private struct RolledBack: Error {}

    private let release = DispatchSemaphore(value: 0)
    private let transaction: Task<Void, any Error>

    /// Returns once `statement` has run.
    init(_ database: StoreDatabase, running statement: SQLQuery, rollingBack: Bool = false) async throws {
        let ran = Locked(false)
        let release = self.release
        transaction = Task {
            try await database.sql.write { connection in
                _ = try connection.execute(statement)
                ran.withLock { $0 = true }
                release.wait()
                if rollingBack { throw RolledBack() }
            }
        }
        guard try await eventually({ ran.withLock { $0 } }) else {
            release.signal()
            throw DatabaseError(kind: .other, code: "test", message: "the held transaction's statement never ran")
        }
    }

    /// Ends the transaction and waits for it.
    func finish() async throws {
        release.signal()
        do {
            try await transaction.value
        } catch is RolledBack {}
    }
}
