import Foundation
import StoreAPI
import StoreServerTestSupport
import StoreTestSupport
import Testing

@testable import StoreServer

/// `/healthz` and `/readyz` (docs/BEHAVIOUR.md §15), through a real server on both databases.
@Suite("Operations: health and readiness") struct OperationsTests {
    @Test(
        "healthz answers while the process runs; readyz when the database answers with its schema current",
        arguments: Backend.allCases)
    func healthAndReadiness(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let health = try await store.send(OperationsEndpoints.health)
            #expect(health.status == 200)
            #expect(try health.decode(HealthBody.self).status == "ok")
            #expect(health.header("Cache-Control") == "no-store")
            let ready = try await store.send(OperationsEndpoints.ready)
            #expect(ready.status == 200)
            #expect(try ready.decode(HealthBody.self).status == "ready")

            // A migration this build knows, missing from the database: not ready.
            let newest = try await store.database.sql.write { connection in
                let version = try connection.queryFirst("SELECT MAX(version) AS v FROM schema_migrations")?.decode(
                    "v", as: Int64.self)
                try connection.execute("DELETE FROM schema_migrations WHERE version = \(version)")
                return version
            }
            let outdated = try await store.send(OperationsEndpoints.ready)
            #expect(outdated.status == 503)
            #expect(try outdated.decode(HealthBody.self).status == "schema_outdated")
            #expect(try await store.send(OperationsEndpoints.health).status == 200)
            try await store.database.sql.write { connection in
                try connection.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(newest), 'restored', 0)")
            }
            #expect(try await store.send(OperationsEndpoints.ready).status == 200)

            // Draining: not ready at once, still serving.
            store.server.beginDraining()
            let draining = try await store.send(OperationsEndpoints.ready)
            #expect(draining.status == 503)
            #expect(try draining.decode(HealthBody.self).status == "draining")
            #expect(try await store.send(OperationsEndpoints.health).status == 200)
            #expect(try await store.send("GET", "/api/products").status == 200)
        }
    }
}
