import Concurrency
import Foundation
import HTTPServer
import StoreAPI
import StoreDatabase
import StoreServices

/// `/healthz` and `/readyz` (docs/BEHAVIOUR.md §15): the process is alive; the store can serve.
struct OperationsRoutes: Sendable {
    let database: StoreDatabase
    let draining: Locked<Bool>
    /// How long the database may take to answer before the store counts as not ready.
    static let databaseDeadline: Duration = .seconds(1)

    func register(on routes: inout RouteTable) {
        routes.open(OperationsEndpoints.health, .immediate { _, _ in Self.healthy })
        routes.open(OperationsEndpoints.ready) { _, _ in
            let status = await readiness()
            return try respond(HealthBody(status: status), status: status == "ready" ? .ok : .serviceUnavailable)
        }
    }

    static let healthy: Response = {
        var response = Response.bytes(Array(#"{"status":"ok"}"#.utf8), contentType: "application/json; charset=utf-8")
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return response
    }()

    /// `ready`, or why not: `draining`, `database_unavailable` (no answer within a second, or an
    /// error), `schema_outdated` (a migration this build knows is not applied).
    func readiness() async -> String {
        if draining.withLock({ $0 }) { return "draining" }
        let database = self.database
        let first = FirstResult<String>()
        let status = await withCheckedContinuation { continuation in
            first.install(continuation)
            let timer = Task {
                do {
                    try await Task.sleep(for: Self.databaseDeadline)
                } catch {
                    return
                }
                first.resume(with: "database_unavailable")
            }
            Task {
                let answer: String
                do {
                    answer = try await database.schemaIsCurrent() ? "ready" : "schema_outdated"
                } catch {
                    answer = "database_unavailable"
                }
                timer.cancel()
                first.resume(with: answer)
            }
        }
        return status
    }
}
