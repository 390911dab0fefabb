import Foundation
import PostgresDriver
import StoreSQL
import Testing

/// Measures what the prepared statement cache buys: the same statements with the cache on and off.
///
/// Opt-in, since timings mean little on a busy machine:
/// `STORE_POSTGRES_BENCHMARK=1 STORE_TEST_POSTGRES_URL=… swift test -c release --filter StatementCacheBenchmark`
@Suite(
    .enabled(
        if: PostgresTestEnvironment.isAvailable
            && ProcessInfo.processInfo.environment["STORE_POSTGRES_BENCHMARK"] == "1",
        "set STORE_POSTGRES_BENCHMARK=1 (and STORE_TEST_POSTGRES_URL) to measure the statement cache"))
struct StatementCacheBenchmark {
    @Test func preparedAgainstUnpreparedStatements() async throws {
        try await withTestSchema { schema in
            let setup = try schema.connect()
            try setup.executeScript(
                """
                CREATE TABLE products (
                    id int8 PRIMARY KEY, title text NOT NULL, price int8 NOT NULL, stock int8 NOT NULL,
                    category text NOT NULL
                );
                INSERT INTO products
                SELECT g, 'Product ' || g, g * 100, 1000, 'c' || (g % 10) FROM generate_series(1, 10000) g;
                ANALYZE products;
                """)
            let rounds = 3
            let iterations = 4000
            for capacity in [0, 128, 0, 128] {
                let connection = try schema.connect(statementCacheCapacity: capacity)
                var best: [String: Duration] = [:]
                for _ in 0..<rounds {
                    let clock = ContinuousClock()
                    let lookup = clock.measure {
                        for index in 0..<iterations {
                            let id = Int64(index % 10_000 + 1)
                            _ = try? connection.query(
                                "SELECT id, title, price, stock FROM products WHERE id = \(id) AND stock >= \(1)")
                        }
                    }
                    let join = clock.measure {
                        for index in 0..<iterations / 4 {
                            let category = "c\(index % 10)"
                            _ = try? connection.query(
                                """
                                SELECT p.id, p.title, p.price FROM products p
                                JOIN products q ON q.id = p.id + 1
                                WHERE p.category = \(category) AND p.price BETWEEN \(Int64(100)) AND \(Int64(5000))
                                ORDER BY p.price DESC LIMIT \(5)
                                """)
                        }
                    }
                    let update = clock.measure {
                        for index in 0..<iterations {
                            _ = try? connection.execute(
                                "UPDATE products SET stock = stock - \(1) WHERE id = \(Int64(index % 10_000 + 1))")
                        }
                    }
                    for (name, duration) in [("lookup", lookup), ("join", join), ("update", update)] {
                        best[name] = min(best[name] ?? duration, duration)
                    }
                }
                for name in ["lookup", "join", "update"] {
                    let duration = best[name] ?? .zero
                    let count = name == "join" ? iterations / 4 : iterations
                    let perSecond =
                        Double(count)
                        / (Double(duration.components.seconds)
                            + Double(duration.components.attoseconds) / 1e18)
                    print("statement cache \(capacity): \(name) \(Int(perSecond)) statements/s")
                }
            }
        }
    }
}
