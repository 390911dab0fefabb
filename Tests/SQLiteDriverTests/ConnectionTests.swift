import CSQLite
import Foundation
import StoreSQL
import Testing

@testable import SQLiteDriver

extension SQLiteDriverTests {
    @Suite struct Connection {
        @Test func valuesRoundTripThroughBindsAndColumns() async throws {
            try await withDatabase { database, _ in
                try await database.write { connection in
                    try connection.executeScript("CREATE TABLE samples (id INTEGER PRIMARY KEY, value);")
                }
                let samples: [SQLValue] = [
                    .integer(Int64.min), .integer(Int64.max), .integer(0),
                    .text(""), .text("héllo wörld 🛒 価格 ∑"), .text("a\u{0}b\u{0}"),
                    .blob([]), .blob([0, 1, 2, 255, 0]),
                    .null,
                ]
                try await database.write { connection in
                    for (index, sample) in samples.enumerated() {
                        try connection.execute("INSERT INTO samples (id, value) VALUES (\(index), \(sample))")
                    }
                }
                let rows = try await database.read { connection in
                    try connection.query(
                        "SELECT value, typeof(value) AS type, length(CAST(value AS BLOB)) AS bytes FROM samples ORDER BY id"
                    )
                }
                #expect(rows.map { $0.values[0] } == samples)
                let types = try rows.map { try $0.decode("type", as: String.self) }
                #expect(types == ["integer", "integer", "integer", "text", "text", "text", "blob", "blob", "null"])
                // The embedded NULs are stored, not cut off: "a\0b\0" is four bytes.
                #expect(try rows[5].decode("bytes", as: Int.self) == 4)
                #expect(try rows[6].decode("bytes", as: Int.self) == 0)
            }
        }

        @Test func bindsWorkInWhereClausesToo() async throws {
            try await withDatabase { database, _ in
                let text = "x\u{0}y ✓"
                let echoed = try await database.read { connection in
                    try connection.queryFirst("SELECT \(text) AS t, \(Int64.min) AS i, \([UInt8]()) AS b")
                }
                #expect(echoed?.values == [.text(text), .integer(Int64.min), .blob([])])
            }
        }

        @Test func constraintViolationsMapToTheirKinds() async throws {
            try await withDatabase { database, _ in
                try await database.write { connection in
                    try connection.executeScript(
                        """
                        CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE);
                        CREATE TABLE orders (
                            id INTEGER PRIMARY KEY,
                            customer_id INTEGER NOT NULL REFERENCES customers(id),
                            total_cents INTEGER NOT NULL CHECK (total_cents >= 0)
                        );
                        INSERT INTO customers (id, email) VALUES (1, 'known@example.com');
                        """)
                }
                let secret = "known@example.com"
                let cases: [(SQLQuery, DatabaseError.Kind, String)] = [
                    (
                        "INSERT INTO customers (id, email) VALUES (2, \(secret))", .uniqueViolation,
                        "SQLITE_CONSTRAINT_UNIQUE (2067)"
                    ),
                    (
                        "INSERT INTO customers (id, email) VALUES (1, 'other@example.com')", .uniqueViolation,
                        "SQLITE_CONSTRAINT_PRIMARYKEY (1555)"
                    ),
                    (
                        "INSERT INTO orders (customer_id, total_cents) VALUES (\(42), 100)", .foreignKeyViolation,
                        "SQLITE_CONSTRAINT_FOREIGNKEY (787)"
                    ),
                    (
                        "INSERT INTO orders (customer_id, total_cents) VALUES (1, \(-5))", .checkViolation,
                        "SQLITE_CONSTRAINT_CHECK (275)"
                    ),
                    (
                        "INSERT INTO customers (id, email) VALUES (3, \(String?.none))", .notNullViolation,
                        "SQLITE_CONSTRAINT_NOTNULL (1299)"
                    ),
                ]
                for (query, kind, code) in cases {
                    let error = await #expect(throws: DatabaseError.self) {
                        _ = try await database.write { connection in try connection.execute(query) }
                    }
                    #expect(error?.kind == kind, "\(query)")
                    #expect(error?.code == code, "\(query)")
                    #expect(error?.message.contains(secret) == false, "a bound value leaked into the message")
                }
                let count = try await database.read { connection in
                    try connection.queryFirst("SELECT count(*) AS n FROM orders")?.decode("n", as: Int.self)
                }
                #expect(count == 0)
            }
        }

        @Test func executeReturnsTheRowsItChanged() async throws {
            try await withDatabase { database, _ in
                try await createItems(database)
                let counts = try await database.write { connection in
                    [
                        try connection.execute("INSERT INTO items (name) VALUES ('a'), ('b'), ('c')"),
                        try connection.execute("UPDATE items SET name = name || '!' WHERE id <= \(2)"),
                        try connection.execute("SELECT * FROM items"),
                        try connection.execute("CREATE TABLE other (id INTEGER PRIMARY KEY)"),
                        try connection.execute("DELETE FROM items WHERE name = \("nothing")"),
                    ]
                }
                #expect(counts == [3, 2, 0, 0, 0])
            }
        }

        @Test func theStatementCacheReusesStatementsWithFreshBinds() async throws {
            try await withTemporaryDirectory { directory in
                let connection = try SQLiteConnection(
                    path: directory + "/cache.sqlite", options: .init(statementCacheCapacity: 2))
                try connection.executeScript("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);")
                for (id, name) in [(1, "one"), (2, "two"), (3, "three")] {
                    try connection.execute("INSERT INTO items (id, name) VALUES (\(id), \(name))")
                }
                #expect(connection.cachedStatementCount == 1)
                for (id, name) in [(2, "two"), (1, "one"), (3, "three"), (2, "two"), (4, nil)] {
                    let found = try connection.queryFirst("SELECT name FROM items WHERE id = \(id)")
                    #expect(try found?.decode("name", as: String.self) == name)
                }
                #expect(connection.cachedStatementCount == 2)
                // A third distinct statement evicts one; the cache stays bounded and results stay right.
                #expect(try connection.query("SELECT id FROM items WHERE id > \(1) ORDER BY id").count == 2)
                #expect(connection.cachedStatementCount == 2)
                #expect(try connection.queryFirst("SELECT name FROM items WHERE id = \(3)")?.values == [.text("three")])
            }
        }

        @Test func queriesOfOneShapeShareAStatementAndListsOfAnotherLengthDoNot() async throws {
            try await withTemporaryDirectory { directory in
                let connection = try SQLiteConnection(path: directory + "/shapes.sqlite")
                try connection.executeScript("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);")
                for id in 1...5 {
                    try connection.execute("INSERT INTO items (id, name) VALUES (\(Int64(id)), \("item \(id)"))")
                }
                func names(in ids: [Int64]) throws -> [String] {
                    let list = SQLQuery.joined(ids.map { "\($0)" }, separator: ", ")
                    return try connection.query("SELECT name FROM items WHERE id IN (\(list)) ORDER BY id")
                        .map { try $0.decode("name") }
                }
                #expect(try names(in: [1, 2]) == ["item 1", "item 2"])
                #expect(try names(in: [4, 5]) == ["item 4", "item 5"])
                #expect(connection.cachedStatementCount == 2)
                #expect(try names(in: [1, 3, 5]) == ["item 1", "item 3", "item 5"])
                #expect(try names(in: [2]) == ["item 2"])
                #expect(connection.cachedStatementCount == 4)
            }
        }

        @Test func oneCachedStatementBindsTextsAndBlobsOfEverySizeExactly() async throws {
            // Bound text and blobs are read by SQLite from a buffer the statement keeps and grows:
            // each use must see its own values, whatever the sizes before it.
            try await withTemporaryDirectory { directory in
                let connection = try SQLiteConnection(path: directory + "/binds.sqlite")
                try connection.executeScript("CREATE TABLE pairs (id INTEGER PRIMARY KEY, a TEXT, b BLOB, c TEXT);")
                var expected: [[SQLValue]] = []
                for (id, size) in [0, 1, 15, 16, 255, 256, 257, 100_000, 3, 0, 70_000, 2].enumerated() {
                    let text = String(repeating: "é✓\u{0}x", count: size / 4 + 1).prefix(size)
                    let blob = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ id) }
                    let other = "\(id)-\(size)"
                    let echoed = try connection.queryFirst(
                        "SELECT \(String(text)) AS a, \(blob) AS b, \(other) AS c, \(Int64(id)) AS id")
                    #expect(echoed?.values == [.text(String(text)), .blob(blob), .text(other), .integer(Int64(id))])
                    try connection.execute(
                        "INSERT INTO pairs (id, a, b, c) VALUES (\(Int64(id)), \(String(text)), \(blob), \(other))")
                    expected.append([.text(String(text)), blob.isEmpty ? .blob([]) : .blob(blob), .text(other)])
                }
                let stored = try connection.query("SELECT a, b, c FROM pairs ORDER BY id").map(\.values)
                #expect(stored == expected)
                #expect(connection.cachedStatementCount == 3)
            }
        }

        @Test func sqliteKeepsNoMemoryStatistics() async throws {
            try await withTemporaryDirectory { directory in
                let connection = try SQLiteConnection(path: directory + "/statistics.sqlite")
                try connection.executeScript("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);")
                try connection.execute("INSERT INTO items (name) VALUES (\(String(repeating: "x", count: 10_000)))")
                // Turned off before SQLite started: its allocations are not counted (and take no
                // process-wide lock to be counted).
                #expect(SQLiteConnection.memoryStatisticsAreOff)
                #expect(sqlite3_memory_used() == 0)
            }
        }

        @Test func aCachedStatementReadsItsColumnsAgainAfterTheSchemaChanged() async throws {
            try await withTemporaryDirectory { directory in
                let path = directory + "/columns.sqlite"
                let connection = try SQLiteConnection(path: path)
                try connection.executeScript("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);")
                try connection.execute("INSERT INTO items (id, name) VALUES (\(1), \("one"))")
                let first = try #require(try connection.queryFirst("SELECT * FROM items"))
                #expect(first.columns == ["id", "name"])
                // Another connection changes the table: the cached statement is prepared afresh by
                // SQLite, and its rows carry the new column's name and value.
                let other = try SQLiteConnection(path: path)
                try other.executeScript("ALTER TABLE items ADD COLUMN colour TEXT DEFAULT 'red';")
                let second = try #require(try connection.queryFirst("SELECT * FROM items"))
                #expect(second.columns == ["id", "name", "colour"])
                #expect(try second.decode("colour", as: String.self) == "red")
                #expect(connection.cachedStatementCount == 2)
            }
        }

        @Test func floatingPointColumnsAreRefused() async throws {
            try await withDatabase { database, _ in
                let error = await #expect(throws: DatabaseError.self) {
                    try await database.read { connection in try connection.query("SELECT 1.5 AS price") }
                }
                #expect(error?.kind == .decoding)
            }
        }

        @Test func misuseIsReportedNotCrashed() async throws {
            try await withDatabase { database, _ in
                try await createItems(database)
                let wrongBindCount = await #expect(throws: DatabaseError.self) {
                    try await database.read { connection in try connection.query(SQLQuery(unsafeSQL: "SELECT ?1, ?2")) }
                }
                #expect(wrongBindCount?.kind == .misuse)
                let twoStatements = await #expect(throws: DatabaseError.self) {
                    try await database.write { connection in
                        try connection.execute("INSERT INTO items (name) VALUES ('a'); DELETE FROM items")
                    }
                }
                #expect(twoStatements?.kind == .misuse)
                let syntax = await #expect(throws: DatabaseError.self) {
                    try await database.read { connection in try connection.query("SELEKT 1") }
                }
                #expect(syntax?.code == "SQLITE_ERROR (1)")
                // A trailing comment is not a second statement.
                let one = try await database.read { connection in try connection.query("SELECT 1 AS one; -- done") }
                #expect(one.first?.values == [.integer(1)])
                #expect(try await itemNames(database).isEmpty)
            }
        }
    }
}
