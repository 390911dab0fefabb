import Foundation
import PaymentProvider
import StoreDatabase

/// The whole store, started: the database opened (migrated, and seeded on first use), the sandbox
/// payment provider's ledger beside it, and the server listening. The one way the store is
/// started — by `store serve` and by the tests alike.
///
/// ```swift
/// let store = try await RunningStore.start(RunningStore.Launch(databaseURL: "sqlite:.store/store.sqlite"))
/// print("listening on \(store.address)")
/// …
/// await store.stop()
/// ```
public struct RunningStore: Sendable {
    /// What the store is started from.
    public struct Launch: Sendable {
        /// `sqlite:PATH` or `postgres://user[:password]@host:port/dbname`.
        public var databaseURL: String
        /// How the server listens, its rules and its intervals.
        public var server: StoreServer.Options
        /// How many connections a PostgreSQL pool of the store's database holds.
        public var databasePoolSize: Int
        /// How many connections the sandbox provider's ledger holds.
        public var ledgerPoolSize: Int
        /// What the server charges through, made from the sandbox (tests wrap it to add faults).
        public var provider: @Sendable (SandboxProvider) -> any PaymentProvider
        /// Whether a new database gets the demo data (catalog, promotions, demo customers and
        /// owner); without, a real shop starts with the schema only.
        public var demoData: Bool

        public init(
            databaseURL: String, server: StoreServer.Options = StoreServer.Options(), databasePoolSize: Int = 8,
            ledgerPoolSize: Int = 4, provider: @escaping @Sendable (SandboxProvider) -> any PaymentProvider = { $0 },
            demoData: Bool = true
        ) {
            self.demoData = demoData
            self.databaseURL = databaseURL
            self.server = server
            self.databasePoolSize = databasePoolSize
            self.ledgerPoolSize = ledgerPoolSize
            self.provider = provider
        }
    }

    public let server: StoreServer
    public let database: StoreDatabase
    /// The sandbox provider itself, which tests count charges in (the server may charge through a
    /// wrapper of it).
    public let provider: SandboxProvider
    /// `http://HOST:PORT`, with the port the server really listens on.
    public let address: String

    /// Opens the database and the ledger, builds the server, resolves what a previous run left
    /// unfinished and starts accepting connections. What is opened is closed again when a later
    /// step fails.
    ///
    /// - Throws: ``StartError``, saying which step failed (the database URL's password redacted).
    public static func start(_ launch: Launch) async throws(StartError) -> RunningStore {
        let url = launch.databaseURL
        let redacted = (try? DatabaseURL(url).redacted) ?? "(invalid URL)"
        let opened: StoreDatabase
        do {
            opened = try await StoreDatabase.open(
                url: url, seed: launch.demoData, hasher: launch.server.hasher, poolSize: launch.databasePoolSize)
        } catch {
            throw StartError("cannot open the database \(redacted): \(error)")
        }
        // On PostgreSQL, other servers may share the database: this one's presence lets them take
        // over its checkouts and refunds the moment it dies.
        let database: StoreDatabase
        do {
            database = opened.present(try await ServerPresence.start(url: url))
        } catch {
            await opened.close()
            throw StartError("cannot take this server's presence lock in \(redacted): \(error)")
        }
        let provider: SandboxProvider
        do {
            let ledger = try await StoreDatabase.openUnmigrated(
                url: StoreDatabase.defaultLedgerURL(forStore: url), poolSize: launch.ledgerPoolSize)
            provider = try await SandboxProvider.open(ledger: ledger.sql)
        } catch {
            await database.close()
            throw StartError("cannot open the sandbox payment provider's ledger: \(error)")
        }
        let options = launch.server
        do {
            let server = try await StoreServer(
                database: database, provider: launch.provider(provider), options: options)
            try await server.start()
            let host = options.host.contains(":") ? "[\(options.host)]" : options.host
            return RunningStore(
                server: server, database: database, provider: provider, address: "http://\(host):\(server.port)")
        } catch {
            await provider.close()
            await database.close()
            throw StartError("cannot start the server on \(options.host):\(options.port): \(error)")
        }
    }

    /// Stops accepting connections, finishes the requests in flight, then closes the ledger and the
    /// database.
    public func stop() async {
        await server.shutdown()
        await provider.close()
        await database.close()
    }

    /// Why the store could not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
