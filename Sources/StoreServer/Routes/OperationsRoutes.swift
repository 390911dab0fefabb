import Concurrency
import Foundation
import HTTPServer
import StoreAPI
import StoreDatabase
import StoreSQL
import StoreServices

/// `/healthz` and `/readyz` (docs/BEHAVIOUR.md §15): the process is alive; the store can serve.
struct OperationsRoutes: Sendable {
    let database: StoreDatabase
    let draining: Locked<Bool>
    let metrics: StoreMetrics
    /// Who else may read the metrics: `Authorization: Bearer` of this token.
    let metricsToken: String?
    /// The gauges only the server knows.
    let serverGauges: @Sendable () -> (openConnections: Int, requestsInFlight: Int)
    /// How long the database may take to answer before the store counts as not ready.
    static let databaseDeadline: Duration = .seconds(1)

    func register(on routes: inout RouteTable) {
        routes.open(OperationsEndpoints.health, .immediate { _, _ in Self.healthy })
        routes.open(OperationsEndpoints.ready) { _, _ in
            let status = await readiness()
            return try respond(HealthBody(status: status), status: status == "ready" ? .ok : .serviceUnavailable)
        }
        routes.open(OperationsEndpoints.metrics) { request, _ in
            guard Self.mayReadMetrics(request, token: metricsToken) else { throw HTTPError.notFound() }
            let database = self.database
            let (unresolved, pending) = try await database.sql.read { connection in
                (
                    try connection.queryFirst("SELECT COUNT(*) AS n FROM payment_attempts WHERE state = 'pending'")?
                        .decode("n", as: Int.self) ?? 0,
                    try connection.queryFirst("SELECT COUNT(*) AS n FROM refunds WHERE state = 'pending'")?.decode(
                        "n", as: Int.self) ?? 0
                )
            }
            let server = serverGauges()
            let text = metrics.render(
                StoreMetrics.Gauges(
                    unresolvedPayments: unresolved, pendingRefunds: pending,
                    databaseWaitingJobs: (database.sql as? any SQLQueueReporting)?.waitingJobs ?? 0,
                    databaseRoundTrips: (database.sql as? any SQLQueueReporting)?.roundTrips,
                    databaseGroupCommits: (database.sql as? any SQLQueueReporting)?.groupCommits,
                    databaseLookups: (database.sql as? any SQLQueueReporting)?.lookups,
                    presenceHeld: database.presence?.isHeld,
                    openConnections: server.openConnections, requestsInFlight: server.requestsInFlight))
            var response = Response.bytes(Array(text.utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
            response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
            return response
        }
    }

    /// Loopback addresses, or the metrics token (compared in constant time).
    static func mayReadMetrics(_ request: Request, token: String?) -> Bool {
        if let address = request.clientAddress, loopback.contains(address) { return true }
        guard let token, !token.isEmpty,
            let header = request.headers["Authorization"], header.hasPrefix("Bearer ")
        else { return false }
        let offered = Array(header.dropFirst("Bearer ".count).utf8)
        let expected = Array(token.utf8)
        guard offered.count == expected.count else { return false }
        return zip(offered, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static let loopback = TrustedProxies(parsing: "127.0.0.0/8,::1") ?? .none

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
        return await FirstResult.within(Self.databaseDeadline, or: "database_unavailable") {
            do {
                return try await database.schemaIsCurrent() ? "ready" : "schema_outdated"
            } catch {
                return "database_unavailable"
            }
        }
    }
}
