import Concurrency
import Foundation
import PaymentProvider
import StoreDatabase
import StoreServer

extension StoreCommand.ServeOptions {
    /// What `store serve` starts the store from: the one composition the tests start it with too.
    var launch: RunningStore.Launch {
        RunningStore.Launch(
            databaseURL: database,
            server: StoreServer.Options(
                host: host, port: port, connectionsPerAddress: connectionsPerAddress, trustedProxies: trustedProxies,
                metricsToken: metricsToken),
            demoData: demoData)
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

/// Why a command could not do what it was asked, said in one line.
struct StartError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
