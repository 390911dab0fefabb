import Foundation
import StoreSQL
import Testing

@testable import PostgresDriver

/// Runs `body` with a connection on a fresh schema, then drops the schema.
///
/// These tests are synchronous: a `PostgresConnection` blocks its caller, as documented.
private func withConnection<T>(
    statementCacheCapacity: Int = 128, _ body: (PostgresConnection) throws -> T
) throws
    -> T
{
    let schema = try TestSchema.create()
    defer { schema.drop() }
    let connection = try schema.connect(statementCacheCapacity: statementCacheCapacity)
    return try body(connection)
}

@Suite(.enabled(if: PostgresTestEnvironment.isAvailable, PostgresTestEnvironment.skipReason))
struct PostgresConnectionTests {
    // MARK: Connecting

    @Test func aURLWithoutAPostgresSchemeIsRefused() {
        for url in ["mysql://root:hunter2@127.0.0.1/db", "host=127.0.0.1 password=hunter2", ""] {
            let error = #expect(throws: DatabaseError.self) { try PostgresConnection(url: url) }
            #expect(error?.kind == .connectionFailed)
            #expect(error?.message.contains("hunter2") == false)
        }
    }

    @Test func aWrongPortFailsWithConnectionFailedAndNoPassword() throws {
        let password = "s3cr@t-Pa55"
        let url = "postgres://postgres:s3cr%40t-Pa55@127.0.0.1:1/store_test?connect_timeout=5"
        let error = #expect(throws: DatabaseError.self) { try PostgresConnection(url: url) }
        let failure = try #require(error)
        #expect(failure.kind == .connectionFailed)
        #expect(failure.code == "08001")
        #expect(!failure.message.isEmpty)
        #expect(!failure.message.contains(password))
        #expect(!failure.message.contains("s3cr%40t-Pa55"))
        #expect(!failure.description.contains(password))
    }

    @Test(arguments: [
        "postgres://alice:hunter2-secret@[::1/store_test",
        "postgresql://alice:hunter2-secret@127.0.0.1:notaport/store_test",
        "postgres://alice@127.0.0.1:1/store_test?password=hunter2-secret&oops",
        "postgres://alice@127.0.0.1:1/store_test?password=hunter2%2Dsecret&sslmode=bogus",
        "postgres://alice:hunter2%2dsecret@127.0.0.1:1/store_test?x=%zz",
    ])
    func malformedURLsNeverEchoThePassword(url: String) throws {
        let error = #expect(throws: DatabaseError.self) { try PostgresConnection(url: url) }
        let failure = try #require(error)
        #expect(failure.kind == .connectionFailed)
        #expect(!failure.message.contains("hunter2-secret"))
        #expect(!failure.message.contains("hunter2%2"))
    }

    @Test func anUnknownDatabaseIsAConnectionFailure() throws {
        var components = try #require(URLComponents(string: PostgresTestEnvironment.requiredURL()))
        components.path = "/no_such_database_\(UUID().uuidString.prefix(8))"
        let url = try #require(components.string)
        let error = #expect(throws: DatabaseError.self) { try PostgresConnection(url: url) }
        #expect(error?.kind == .connectionFailed)
        #expect(error?.message.contains("does not exist") == true)
    }

    // MARK: Values

    @Test func valuesRoundTripThroughBindsAndResults() throws {
        try withConnection { connection throws in
            try connection.executeScript(
                "CREATE TABLE items (id int8 PRIMARY KEY, i int8, t text, b bytea, f bool, small int2, medium int4)")
            let texts = [
                "", "plain", "Grüße, 日本語, emoji 👩‍👩‍👧", "O'Brien said \"hi\"", #"back\slash \\ and \x41 and $1"#,
                "'; DROP TABLE items; --", String(repeating: "long ", count: 10_000),
            ]
            let integers: [Int64] = [.min, .max, 0, -1, 1, 42]
            let blobs: [[UInt8]] = [
                [], [0], Array(0...255), Array("\\x00".utf8), [UInt8](repeating: 0xFF, count: 70_000),
            ]

            var id: Int64 = 0
            var expected: [Int64: (Int64, String, [UInt8])] = [:]
            for (index, text) in texts.enumerated() {
                let integer = integers[index % integers.count]
                let blob = blobs[index % blobs.count]
                id += 1
                let inserted = try connection.execute(
                    "INSERT INTO items (id, i, t, b, f) VALUES (\(id), \(integer), \(text), \(blob), \(index % 2 == 0))"
                )
                #expect(inserted == 1)
                expected[id] = (integer, text, blob)
            }
            for row in try connection.query("SELECT id, i, t, b, f FROM items ORDER BY id") {
                let id: Int64 = try row.decode("id")
                let (integer, text, blob) = try #require(expected[id])
                #expect(try row.decode("i", as: Int64.self) == integer)
                #expect(try row.decode("t", as: String.self) == text)
                #expect(try row.decode("b", as: [UInt8].self) == blob)
                #expect(try row.decode("f", as: Bool.self) == ((id - 1) % 2 == 0))
            }

            // Every extreme integer, selected back as its own type.
            for integer in integers {
                let row = try #require(try connection.queryFirst("SELECT \(integer)::int8 AS v"))
                #expect(row.values == [.integer(integer)])
            }
        }
    }

    @Test func nullsRoundTripInEveryColumnType() throws {
        try withConnection { connection throws in
            try connection.executeScript("CREATE TABLE n (i int8, t text, b bytea, f bool, d numeric)")
            let none: String? = nil
            let noBlob: [UInt8]? = nil
            try connection.execute(
                "INSERT INTO n VALUES (\(Int64?.none), \(none), \(noBlob), \(Bool?.none), \(SQLValue.null))")
            let row = try #require(try connection.queryFirst("SELECT i, t, b, f, d FROM n"))
            #expect(row.values == [.null, .null, .null, .null, .null])
            #expect(try row.decode("t", as: String?.self) == nil)
            #expect(try row.decode("i", as: Int64?.self) == nil)
        }
    }

    @Test func columnTypesDecodeByTheirOID() throws {
        try withConnection { connection throws in
            let row = try #require(
                try connection.queryFirst(
                    """
                    SELECT 7::int2 AS small, 8::int4 AS medium, 9::int8 AS big, true AS yes, false AS no,
                           12.50::numeric AS price, '\\x00ff'::bytea AS raw, 'x'::varchar AS name,
                           1.5::float8 AS ratio, NULL::int8 AS missing
                    """))
            #expect(row.columns == ["small", "medium", "big", "yes", "no", "price", "raw", "name", "ratio", "missing"])
            #expect(
                row.values == [
                    .integer(7), .integer(8), .integer(9), .integer(1), .integer(0), .text("12.50"), .blob([0, 255]),
                    .text("x"), .text("1.5"), .null,
                ])
        }
    }

    @Test func byteaInTheEscapeOutputFormatDecodesToo() throws {
        try withConnection { connection throws in
            try connection.executeScript("SET bytea_output = escape")
            let bytes = Array(UInt8(0)...UInt8(255))
            let row = try #require(try connection.queryFirst("SELECT \(bytes)::bytea AS b"))
            #expect(try row.decode("b", as: [UInt8].self) == bytes)
        }
    }

    @Test func textWithANULCharacterIsRefusedRatherThanCut() throws {
        try withConnection { connection throws in
            let error = #expect(throws: DatabaseError.self) {
                try connection.query("SELECT \("before\u{0}after")::text AS t")
            }
            #expect(error?.code == "22021")
            #expect(error?.message.contains("before") == false)
            // The connection is still usable.
            #expect(try connection.queryFirst("SELECT 1 AS one")?.values == [.integer(1)])
        }
    }

    // MARK: Statements

    @Test func executeReturnsTheNumberOfRowsAffected() throws {
        try withConnection { connection throws in
            #expect(try connection.execute("CREATE TABLE c (id int8 PRIMARY KEY, n int8 NOT NULL)") == 0)
            #expect(try connection.execute("INSERT INTO c VALUES (1, 0), (2, 0), (3, 5)") == 3)
            #expect(try connection.execute("UPDATE c SET n = n + 1 WHERE n = \(0)") == 2)
            #expect(try connection.execute("DELETE FROM c WHERE id = \(99)") == 0)
            #expect(try connection.execute("SELECT * FROM c") == 3)
        }
    }

    @Test func aScriptRunsEveryStatementOrNone() throws {
        try withConnection { connection throws in
            try connection.executeScript(
                """
                CREATE TABLE a (id int8 PRIMARY KEY);
                CREATE TABLE b (id int8 PRIMARY KEY REFERENCES a (id));
                INSERT INTO a VALUES (1);
                INSERT INTO b VALUES (1);
                """)
            #expect(try connection.query("SELECT id FROM b").count == 1)

            let error = #expect(throws: DatabaseError.self) {
                try connection.executeScript("INSERT INTO a VALUES (2); INSERT INTO b VALUES (3);")
            }
            #expect(error?.kind == .foreignKeyViolation)
            #expect(try connection.query("SELECT id FROM a").count == 1)
        }
    }

    @Test func constraintViolationsMapToTheirKinds() throws {
        try withConnection { connection throws in
            try connection.executeScript(
                """
                CREATE TABLE shoppers (id int8 PRIMARY KEY, email text NOT NULL UNIQUE);
                CREATE TABLE orders (
                    id int8 PRIMARY KEY,
                    shopper int8 NOT NULL REFERENCES shoppers (id),
                    total int8 NOT NULL CHECK (total >= 0)
                );
                """)
            let email = "private.person@example.com"
            try connection.execute("INSERT INTO shoppers VALUES (1, \(email))")

            let cases: [(SQLQuery, DatabaseError.Kind, String)] = [
                ("INSERT INTO shoppers VALUES (2, \(email))", .uniqueViolation, "23505"),
                ("INSERT INTO orders VALUES (1, \(Int64(404)), 100)", .foreignKeyViolation, "23503"),
                ("INSERT INTO orders VALUES (1, 1, \(Int64(-5)))", .checkViolation, "23514"),
                ("INSERT INTO shoppers VALUES (3, \(String?.none))", .notNullViolation, "23502"),
                ("INSERT INTO no_such_table VALUES (1)", .other, "42P01"),
            ]
            for (query, kind, code) in cases {
                let error = #expect(throws: DatabaseError.self) { try connection.execute(query) }
                #expect(error?.kind == kind)
                #expect(error?.code == code)
                // The primary message only: the DETAIL line would quote the duplicate email.
                #expect(error?.message.contains(email) == false)
                #expect(error?.message.contains("DETAIL") == false)
            }
        }
    }

    @Test func dataExceptionsDoNotQuoteTheBoundValue() throws {
        try withConnection { connection throws in
            let secret = "jane.doe@example.com"
            let error = #expect(throws: DatabaseError.self) {
                try connection.query("SELECT \(secret)::int8 AS n")
            }
            #expect(error?.code == "22P02")
            #expect(error?.message == #"invalid input syntax for type bigint: "…""#)
        }
    }

    @Test func aLockThatIsNotAvailableIsBusy() throws {
        let schema = try TestSchema.create()
        defer { schema.drop() }
        let holder = try schema.connect()
        let waiter = try schema.connect()
        try holder.executeScript("CREATE TABLE l (id int8 PRIMARY KEY); INSERT INTO l VALUES (1)")
        try holder.executeScript("BEGIN; SELECT * FROM l WHERE id = 1 FOR UPDATE")
        let error = #expect(throws: DatabaseError.self) {
            try waiter.query("SELECT * FROM l WHERE id = \(Int64(1)) FOR UPDATE NOWAIT")
        }
        #expect(error?.kind == .busy)
        #expect(error?.code == "55P03")
        #expect(error?.isTransient == true)
        try holder.executeScript("ROLLBACK")
    }

    @Test func serverNoticesDoNotDisturbQueries() throws {
        try withConnection { connection throws in
            try connection.executeScript("DO $$ BEGIN RAISE NOTICE 'a notice'; RAISE WARNING 'a warning'; END $$")
            try connection.executeScript("DROP TABLE IF EXISTS surely_absent")
            #expect(try connection.queryFirst("SELECT 1 AS one")?.values == [.integer(1)])
        }
    }

    @Test func anEmptyStatementIsNotAnError() throws {
        try withConnection { connection throws in
            try connection.executeScript("")
            #expect(try connection.execute(" ") == 0)
        }
    }

    @Test func copyIsRefusedAndTheConnectionStaysUsable() throws {
        try withConnection { connection throws in
            try connection.executeScript("CREATE TABLE c (id int8)")
            for sql in ["COPY c FROM STDIN", "COPY (SELECT 1) TO STDOUT"] {
                let error = #expect(throws: DatabaseError.self) { try connection.executeScript(sql) }
                #expect(error?.kind == .misuse)
                #expect(try connection.queryFirst("SELECT 2 AS two")?.values == [.integer(2)])
            }
        }
    }

    @Test(arguments: [0, 128])
    func cachedStatementsSurviveATableChangingShape(statementCacheCapacity: Int) throws {
        try withConnection(statementCacheCapacity: statementCacheCapacity) { connection throws in
            try connection.executeScript("CREATE TABLE p (id int8 PRIMARY KEY); INSERT INTO p VALUES (1)")
            let query: SQLQuery = "SELECT * FROM p WHERE id = \(Int64(1))"
            #expect(try connection.query(query).first?.columns == ["id"])
            try connection.executeScript("ALTER TABLE p ADD COLUMN title text DEFAULT 'x'")
            #expect(try connection.query(query).first?.columns == ["id", "title"])
            // The same again, now that the statement has been prepared afresh.
            #expect(try connection.query(query).first?.values == [.integer(1), .text("x")])
        }
    }

    @Test func aStatementWithDifferentBindTypesIsPreparedSeparately() throws {
        try withConnection { connection throws in
            try connection.executeScript("CREATE TABLE d (v bytea)")
            try connection.execute("INSERT INTO d VALUES (\(SQLValue.null))")
            try connection.execute("INSERT INTO d VALUES (\([UInt8]([1, 2, 3])))")
            try connection.execute("INSERT INTO d VALUES (\(SQLValue.null))")
            let rows = try connection.query("SELECT v FROM d ORDER BY v NULLS LAST")
            #expect(rows.map(\.values) == [[.blob([1, 2, 3])], [.null], [.null]])
        }
    }

    // MARK: Broken connections

    @Test func aTerminatedBackendIsReportedAndReconnectReplacesIt() throws {
        try withConnection { connection throws in
            let pid = try #require(try connection.queryFirst("SELECT pg_backend_pid() AS pid")).decode(
                "pid", as: Int64.self)
            let other = try PostgresConnection(url: PostgresTestEnvironment.requiredURL())
            #expect(try other.queryFirst("SELECT pg_terminate_backend(\(pid)::int4) AS done")?.values == [.integer(1)])
            // Wait until the backend is gone.
            for _ in 0..<100 {
                let alive = try other.query("SELECT 1 FROM pg_stat_activity WHERE pid = \(pid)::int4")
                if alive.isEmpty { break }
                Thread.sleep(forTimeInterval: 0.02)
            }

            let error = #expect(throws: DatabaseError.self) { try connection.query("SELECT 1 AS one") }
            #expect(error?.kind == .connectionFailed)
            #expect(!connection.isConnected)

            try connection.reconnect()
            #expect(connection.isConnected)
            let newPID = try #require(try connection.queryFirst("SELECT pg_backend_pid() AS pid")).decode(
                "pid", as: Int64.self)
            #expect(newPID != pid)
        }
    }
}

/// A vanished server or host is noticed in seconds: TCP keepalives and a user timeout on every
/// connection, unless the URL says otherwise.
@Suite(.enabled(if: PostgresTestEnvironment.isAvailable, PostgresTestEnvironment.skipReason))
struct PostgresKeepaliveTests {
    @Test func keepalivesAreOnByDefaultAndTheURLMayChangeThem() throws {
        let url = try PostgresTestEnvironment.requiredURL()
        let connection = try PostgresConnection(url: url)
        #expect(connection.option("keepalives") == "1")
        #expect(connection.option("keepalives_idle") == "5")
        #expect(connection.option("keepalives_interval") == "2")
        #expect(connection.option("keepalives_count") == "3")
        #expect(connection.option("tcp_user_timeout") == "10000")
        let tuned = try PostgresConnection(url: url + (url.contains("?") ? "&" : "?") + "keepalives_idle=30")
        #expect(tuned.option("keepalives_idle") == "30")
        #expect(try tuned.query("SELECT 1 AS one").first?.decode("one", as: Int.self) == 1)
    }
}
