import Foundation
import StoreServerTestSupport
import StoreTestSupport
import Testing

/// `scripts/cluster.sh` (docs/BEHAVIOUR.md §15.5): PostgreSQL, two stores and nginx in front, on
/// loopback; a server killed with `kill -9` and the load balancer serving on.
@Suite("Several servers behind nginx", .serialized) struct ClusterTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func cluster(_ arguments: [String], binary: String = StoreProcess.storeBinary.path) async throws -> String {
        let (status, output) = try await ShortProgram.run(
            "/usr/bin/env",
            [
                "STORE_BIN=\(binary)", "/bin/bash",
                root.appendingPathComponent("scripts/cluster.sh").path,
            ]
                + arguments, limit: .seconds(120))
        guard status == 0 else { throw TestError("cluster.sh \(arguments) failed (\(status)): \(output)") }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("one URL; ready through nginx; a checkout through it; one server killed, the others answer")
    func twoServersBehindNginx() async throws {
        // Where the PostgreSQL tests run, and nginx is installed (make test installs both).
        guard TestPostgres.required() != nil, FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") else {
            return
        }
        let directory = "/tmp/store-cluster-test-\(UUID().uuidString.prefix(8))"
        let base = try await Self.cluster(["start", "2", directory])
        do {
            try await Self.exercise(base: base, directory: directory)
        } catch {
            _ = try? await Self.cluster(["stop", directory])
            throw error
        }
        _ = try await Self.cluster(["stop", directory])
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    static func exercise(base: String, directory: String) async throws {
        func call(
            _ method: String, _ path: String, token: String? = nil, key: String? = nil, json: String? = nil
        )
            async throws -> (Int, Data)
        {
            try await WireHTTP.send(try #require(URL(string: base)), method, path, token: token, key: key, json: json)
        }
        #expect(base.hasPrefix("http://127.0.0.1:"))
        #expect(try await call("GET", "/readyz").0 == 200)
        #expect(try await call("GET", "/metrics").0 == 404, "nginx keeps /metrics to each server's own port")

        let (created, session) = try await call("POST", "/api/sessions")
        #expect(created == 201)
        let token = try JSONDecoder().decode(SessionToken.self, from: session).token
        let (set, basket) = try await call("PUT", "/api/basket/items/1", token: token, json: #"{"quantity":1}"#)
        #expect(set == 200)
        let total = try JSONDecoder().decode(Basket.self, from: basket).total.amount
        let body = #"{"payment_method":{"type":"qr_code"},"expected_total":{"amount":"\#(total)","currency":"EUR"}}"#
        #expect(try await call("POST", "/api/checkout", token: token, key: "cluster-1", json: body).0 == 201)

        // One server dies; the load balancer serves on with the other.
        let pid = try String(contentsOfFile: directory + "/store-1.pid", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        kill(try #require(pid_t(pid)), SIGKILL)
        for _ in 0..<6 { #expect(try await call("GET", "/api/products").0 == 200) }
        // The paid key replays from the database whichever server answers.
        #expect(try await call("POST", "/api/checkout", token: token, key: "cluster-1", json: body).0 == 201)
    }

    struct SessionToken: Decodable { let token: String }
    struct Basket: Decodable {
        struct Total: Decodable { let amount: String }
        let total: Total
    }
}
