import Foundation
import PaymentProvider
import StoreDatabase
import StoreServer
import StoreServices
import StoreTestSupport

/// A store for a test: started the one way the store is started (``StoreServer/RunningStore``),
/// over a fresh database, on a free loopback port. What the end-to-end suites of the server and of
/// the client test against.
extension RunningStore {
    /// `http://127.0.0.1:PORT`.
    public var base: URL {
        // The address is made from a host and a port number: it always forms a URL.
        URL(string: address) ?? URL(fileURLWithPath: "/")
    }

    /// Runs `body` against a store over a fresh database on `backend` (an SQLite file in a
    /// temporary directory, or a fresh PostgreSQL schema named after `prefix`), then stops the
    /// store and removes its data, whether `body` succeeded or not. On PostgreSQL without a
    /// server: a failure in CI, a visible skip elsewhere.
    public static func with(
        _ backend: Backend, prefix: String, clock: StoreClock = .system,
        configuration: StoreConfiguration = StoreConfiguration(),
        provider wrap: @escaping @Sendable (SandboxProvider) -> any PaymentProvider = { $0 },
        log: ServerLog = ServerLog(sink: { _ in }), trustedProxies: TrustedProxies = .none,
        _ body: (RunningStore) async throws -> Void
    ) async throws {
        func run(_ url: String) async throws {
            let store = try await start(
                url: url, clock: clock, configuration: configuration, provider: wrap, log: log,
                trustedProxies: trustedProxies)
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

    /// Starts a store over the database at `url` (migrating and seeding it, with quick password
    /// hashes) and the sandbox ledger beside it, on a free loopback port. Background reconciliation
    /// is off: tests run passes themselves.
    /// - Parameter wrap: what the server charges through, made from the sandbox.
    public static func start(
        url: String, clock: StoreClock = .system, configuration: StoreConfiguration = StoreConfiguration(),
        provider wrap: @escaping @Sendable (SandboxProvider) -> any PaymentProvider = { $0 },
        log: ServerLog = ServerLog(sink: { _ in }), trustedProxies: TrustedProxies = .none
    ) async throws -> RunningStore {
        try await start(
            Launch(
                databaseURL: url,
                server: StoreServer.Options(
                    port: 0, configuration: configuration, clock: clock, hasher: .minimal, log: log,
                    reconciliationInterval: .seconds(3_600), trustedProxies: trustedProxies),
                databasePoolSize: 4, ledgerPoolSize: 2, provider: wrap))
    }
}
