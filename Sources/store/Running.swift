import Concurrency
import Foundation
import PaymentProvider
import StoreDatabase
import StoreServer

/// The store's server and database while `store serve` runs.
struct RunningStore: Sendable {
    let server: StoreServer
    let database: StoreDatabase
    let provider: SandboxProvider
    let address: String

    static func start(_ options: StoreCommand.ServeOptions) async throws -> RunningStore {
        let database: StoreDatabase
        do {
            database = try await StoreDatabase.open(url: options.database)
        } catch {
            throw StartError("cannot open the database \(redacted(options.database)): \(error)")
        }
        let provider: SandboxProvider
        do {
            let ledger = try await StoreDatabase.openUnmigrated(
                url: StoreDatabase.defaultLedgerURL(forStore: options.database), poolSize: 4)
            provider = try await SandboxProvider.open(ledger: ledger.sql)
        } catch {
            await database.close()
            throw StartError("cannot open the sandbox payment provider's ledger: \(error)")
        }
        do {
            let server = try await StoreServer(
                database: database,
                options: StoreServer.Options(
                    provider: provider, host: options.host, port: options.port,
                    connectionsPerAddress: options.connectionsPerAddress))
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

    /// Stops accepting connections, finishes the requests in flight, closes the database.
    func stop() async {
        await server.shutdown()
        await provider.close()
        await database.close()
    }
}

func migrate(url: String) async throws {
    let database = try await StoreDatabase.open(url: url)
    await database.close()
    print("migrated and seeded \(redacted(url))")
}

func redacted(_ url: String) -> String {
    (try? DatabaseURL(url).redacted) ?? "(invalid URL)"
}

struct StartError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("store: \(message)\n".utf8))
    exit(code)
}

/// Runs `body` in a task and blocks the calling (main) thread until it finishes.
func waitFor<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
    let outcome = Locked<Result<Value, any Error>?>(nil)
    Task {
        let result: Result<Value, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        outcome.withLock(waking: .all) { $0 = result }
    }
    return try outcome.wait { $0 }.get()
}
