// What the PostgreSQL driver's prepared-statement cache buys: the same statements with the cache on
// (128 texts) and off (0), alternated, on a table of 10,000 products in a schema of its own.
//
//   STORE_BENCH_POSTGRES_URL=postgres://… .build/release/StatementCacheBenchmark   (make bench runs it)
import Foundation
import PostgresDriver
import StoreSQL

guard let base = ProcessInfo.processInfo.environment["STORE_BENCH_POSTGRES_URL"], !base.isEmpty else {
    print("statement cache: skipped, STORE_BENCH_POSTGRES_URL is not set (make bench starts a server)")
    exit(0)
}

let schema = "bench_statements_\(UInt32.random(in: 0...UInt32.max))"
let url = base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"

func run() throws {
    let admin = try PostgresConnection(url: base)
    try admin.executeScript("CREATE SCHEMA \(schema)")
    defer { try? admin.executeScript("DROP SCHEMA \(schema) CASCADE") }
    let setup = try PostgresConnection(url: url)
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
    let iterations = 4_000
    for capacity in [0, 128, 0, 128] {
        let connection = try PostgresConnection(url: url, statementCacheCapacity: capacity)
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
            let nanoseconds =
                duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
            print(
                "statement cache \(capacity): \(name) \(Int64(count) * 1_000_000_000 / max(1, nanoseconds)) statements/s"
            )
        }
    }
}

do {
    try run()
} catch {
    print("statement cache: failed: \(error)")
    exit(1)
}
