import Foundation
import PaymentProvider
import StoreDatabase
import StoreServer
import StoreServices
import StoreTestSupport

/// A real store on a loopback port, as `store serve` runs it: a migrated and seeded database, the
/// sandbox provider's ledger beside it, and the server. What the end-to-end suites of the server
/// and of the client test against.
public struct RunningStore: Sendable {
    public let server: StoreServer
    public let database: StoreDatabase
    /// The sandbox, which the tests count charges in (the server may charge through a wrapper).
    public let provider: SandboxProvider
    /// `http://127.0.0.1:PORT`.
    public let base: URL

    /// Runs `body` against a store over a fresh database on `backend` (an SQLite file in a
    /// temporary directory, or a fresh PostgreSQL schema named after `prefix`), then stops the
    /// store and removes its data, whether `body` succeeded or not. On PostgreSQL without a
    /// server: a failure in CI, a visible skip elsewhere.
    public static func with(
        _ backend: Backend, prefix: String, clock: StoreClock = .system,
        configuration: StoreConfiguration = StoreConfiguration(),
        provider wrap: @Sendable (SandboxProvider) -> any PaymentProvider = { $0 },
        log: ServerLog = ServerLog(sink: { _ in }),
        _ body: (RunningStore) async throws -> Void
    ) async throws {
        func run(_ url: String) async throws {
            let store = try await start(url: url, clock: clock, configuration: configuration, provider: wrap, log: log)
            do {
                try await body(store)
            } catch {
                await store.stop()
                throw error
            }
            await store.stop()
        }
        switch backend {
        case .sqlite:
            try await withTemporaryDirectory(prefix) { directory in
                try await run("sqlite:\(directory.appendingPathComponent("store.sqlite").path)")
            }
        case .postgres:
            guard let base = TestPostgres.required() else { return }
            try await TestPostgres.withFreshSchema(base, prefix: prefix) { url in try await run(url) }
        }
    }

    /// Starts a store over the database at `url` (migrating and seeding it) and the sandbox ledger
    /// beside it, on a free loopback port. Background reconciliation is off: tests run passes
    /// themselves.
    /// - Parameter wrap: what the server charges through, made from the sandbox.
    public static func start(
        url: String, clock: StoreClock = .system, configuration: StoreConfiguration = StoreConfiguration(),
        provider wrap: @Sendable (SandboxProvider) -> any PaymentProvider = { $0 },
        log: ServerLog = ServerLog(sink: { _ in })
    ) async throws -> RunningStore {
        let database = try await StoreDatabase.open(url: url, hasher: .minimal, poolSize: 4)
        let ledger = try await StoreDatabase.openUnmigrated(
            url: StoreDatabase.defaultLedgerURL(forStore: url), poolSize: 2)
        let provider = try await SandboxProvider.open(ledger: ledger.sql)
        let server = try await StoreServer(
            database: database,
            options: StoreServer.Options(
                provider: wrap(provider), port: 0, configuration: configuration, clock: clock, hasher: .minimal,
                log: log, reconciliationInterval: .seconds(3_600)))
        try await server.start()
        guard let base = URL(string: "http://127.0.0.1:\(server.port)") else {
            throw RunningStoreError.badBaseURL(port: server.port)
        }
        return RunningStore(server: server, database: database, provider: provider, base: base)
    }

    /// Stops the server, then closes the ledger and the database.
    public func stop() async {
        await server.shutdown()
        await provider.close()
        await database.close()
    }
}

/// Why a store could not be started.
public enum RunningStoreError: Error {
    case badBaseURL(port: Int)
}
