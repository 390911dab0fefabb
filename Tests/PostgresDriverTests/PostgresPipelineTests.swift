import Concurrency
import PostgresDriver
import StoreSQL
import Testing

/// Statements a write defers travel with the next statement that is read, or with the commit, in
/// one round trip (libpq's pipeline mode), and fail the transaction as a whole.
@Suite(.enabled(if: PostgresTestEnvironment.isAvailable, PostgresTestEnvironment.skipReason))
struct PostgresPipelineTests {
    private static func makeTable(_ database: PostgresDatabase) async throws {
        try await database.write { connection in
            try connection.executeScript("CREATE TABLE p (id int8 PRIMARY KEY, note text NOT NULL)")
        }
    }

    private static func ids(_ database: PostgresDatabase) async throws -> [Int64] {
        try await database.read { connection in
            try connection.query("SELECT id FROM p ORDER BY id").map { try $0.decode("id", as: Int64.self) }
        }
    }

    /// Round trips made by `body` (the database counts them once each job is done).
    private static func roundTrips(
        _ database: PostgresDatabase, _ body: () async throws -> Void
    ) async throws -> Int {
        let before = try #require(database.roundTrips)
        try await body()
        return try #require(database.roundTrips) - before
    }

    @Test func deferredStatementsGoWithTheCommitInOneRoundTrip() async throws {
        try await withTestDatabase(PostgresDatabase.Configuration(poolSize: 1)) { database, _ async throws in
            try await Self.makeTable(database)
            let trips = try await Self.roundTrips(database) {
                try await database.write { connection in
                    for id in Int64(1)...3 {
                        try connection.executeDeferred("INSERT INTO p (id, note) VALUES (\(id), \("line \(id)"))")
                    }
                }
            }
            #expect(trips == 1)
            #expect(try await Self.ids(database) == [1, 2, 3])
        }
    }

    @Test func aQueryAfterDeferredStatementsSeesThemInTheSameRoundTrip() async throws {
        try await withTestDatabase(PostgresDatabase.Configuration(poolSize: 1)) { database, _ async throws in
            try await Self.makeTable(database)
            var counted: Int64?
            let trips = try await Self.roundTrips(database) {
                counted = try await database.write { connection in
                    try connection.executeDeferred("INSERT INTO p (id, note) VALUES (\(Int64(1)), 'a')")
                    try connection.executeDeferred("INSERT INTO p (id, note) VALUES (\(Int64(2)), 'b')")
                    return try connection.queryFirst("SELECT COUNT(*) AS n FROM p")?.decode("n", as: Int64.self)
                }
            }
            #expect(counted == 2)
            // BEGIN, the two inserts and the count; then the commit.
            #expect(trips == 2)
        }
    }

    @Test func aDeferredErrorAtTheCommitKeepsNothingAndLeavesTheConnectionUsable() async throws {
        try await withTestDatabase(PostgresDatabase.Configuration(poolSize: 1)) { database, _ async throws in
            try await Self.makeTable(database)
            _ = try await database.write { try $0.execute("INSERT INTO p (id, note) VALUES (\(Int64(2)), 'taken')") }
            await #expect {
                try await database.write { connection in
                    try connection.executeDeferred("INSERT INTO p (id, note) VALUES (\(Int64(1)), 'new')")
                    try connection.executeDeferred("INSERT INTO p (id, note) VALUES (\(Int64(2)), 'again')")
                    try connection.executeDeferred("INSERT INTO p (id, note) VALUES (\(Int64(3)), 'after')")
                }
            } throws: { error in
                (error as? DatabaseError)?.kind == .uniqueViolation
            }
            #expect(try await Self.ids(database) == [2])
            try await database.write { try $0.executeDeferred("INSERT INTO p (id, note) VALUES (\(Int64(4)), 'next')") }
            #expect(try await Self.ids(database) == [2, 4])
        }
    }

    @Test func aDeferredErrorSurfacesFromTheNextQueryAndRollsBackTheTransaction() async throws {
        try await withTestDatabase(PostgresDatabase.Configuration(poolSize: 1)) { database, _ async throws in
            try await Self.makeTable(database)
            _ = try await database.write { try $0.execute("INSERT INTO p (id, note) VALUES (\(Int64(1)), 'taken')") }
            let reachedAfterQuery = Locked(false)
            await #expect {
                try await database.write { connection in
                    try connection.executeDeferred("INSERT INTO p (id, note) VALUES (\(Int64(5)), 'new')")
                    try connection.executeDeferred("INSERT INTO p (id, note) VALUES (\(Int64(1)), 'again')")
                    _ = try connection.query("SELECT id FROM p")
                    reachedAfterQuery.withLock { $0 = true }
                }
            } throws: { error in
                (error as? DatabaseError)?.kind == .uniqueViolation
            }
            #expect(!reachedAfterQuery.withLock { $0 })
            #expect(try await Self.ids(database) == [1])
        }
    }

    @Test func aStatementThatCannotBePreparedFailsAndTheCacheForgetsIt() async throws {
        try await withTestDatabase(PostgresDatabase.Configuration(poolSize: 1)) { database, _ async throws in
            try await Self.makeTable(database)
            let broken: SQLQuery = "INSERT INTO missing_table (id) VALUES (\(Int64(1)))"
            for _ in 0..<2 {
                await #expect {
                    try await database.write { connection in
                        try connection.executeDeferred("INSERT INTO p (id, note) VALUES (\(Int64(1)), 'a')")
                        try connection.executeDeferred(broken)
                    }
                } throws: { error in
                    (error as? DatabaseError)?.code == "42P01"
                }
            }
            // Once the table exists, the same text is prepared afresh and runs.
            try await database.write { try $0.executeScript("CREATE TABLE missing_table (id int8)") }
            try await database.write { connection in
                try connection.executeDeferred("INSERT INTO p (id, note) VALUES (\(Int64(1)), 'a')")
                try connection.executeDeferred(broken)
            }
            #expect(try await Self.ids(database) == [1])
        }
    }

    @Test func manyDeferredStatementsAreSentInBoundedBatches() async throws {
        try await withTestDatabase(PostgresDatabase.Configuration(poolSize: 1)) { database, _ async throws in
            try await Self.makeTable(database)
            let trips = try await Self.roundTrips(database) {
                try await database.write { connection in
                    for id in Int64(1)...100 {
                        try connection.executeDeferred("INSERT INTO p (id, note) VALUES (\(id), 'n')")
                    }
                }
            }
            #expect(try await Self.ids(database) == Array(1...100))
            // 32 at a time, the last four with the commit.
            #expect(trips == 4)
        }
    }

    @Test func outsideATransactionADeferredStatementRunsAtOnce() async throws {
        try await withTestDatabase(PostgresDatabase.Configuration(poolSize: 1)) { database, _ async throws in
            try await Self.makeTable(database)
            // A read runs in autocommit mode on a read-only session: the insert is refused at once.
            let refused = try await database.read { connection -> String? in
                do {
                    try connection.executeDeferred("INSERT INTO p (id, note) VALUES (\(Int64(1)), 'a')")
                    return nil
                } catch let error as DatabaseError {
                    return error.code
                }
            }
            #expect(refused == "25006")
            #expect(try await Self.ids(database) == [])
        }
    }

    @Test func aCachedStatementGoingStaleInAPipelineRunsTheWriteAgain() async throws {
        try await withTestDatabase(PostgresDatabase.Configuration(poolSize: 1)) { database, schema async throws in
            try await Self.makeTable(database)
            let select: SQLQuery = "SELECT * FROM p WHERE id = \(Int64(1))"
            _ = try await database.write { try $0.query(select) }
            try await onOwnThread {
                try schema.connect().executeScript("ALTER TABLE p ADD COLUMN x int8")
            }
            let columns = try await database.write { connection in
                try connection.executeDeferred("INSERT INTO p (id, note) VALUES (\(Int64(1)), 'a')")
                return try connection.query(select).first?.columns
            }
            #expect(columns == ["id", "note", "x"])
            #expect(try await Self.ids(database) == [1])
        }
    }

    @Test func severalQueriesAnswerInOrderInOneRoundTrip() async throws {
        try await withTestDatabase(PostgresDatabase.Configuration(poolSize: 1)) { database, _ async throws in
            try await Self.makeTable(database)
            var answers: [[Int64]] = []
            let trips = try await Self.roundTrips(database) {
                answers = try await database.write { connection in
                    try connection.executeDeferred("INSERT INTO p (id, note) VALUES (\(Int64(1)), 'a')")
                    let rows = try connection.queryEach([
                        "UPDATE p SET note = 'b' WHERE id = \(Int64(1)) RETURNING id",
                        "UPDATE p SET note = 'c' WHERE id = \(Int64(9)) RETURNING id",
                        "SELECT id FROM p UNION ALL SELECT \(Int64(7)) ORDER BY 1",
                    ])
                    return try rows.map { try $0.map { try $0.decode("id", as: Int64.self) } }
                }
            }
            #expect(answers == [[1], [], [1, 7]])
            #expect(trips == 2)
            // A failure among them fails the transaction; nothing of it is kept.
            await #expect {
                try await database.write { connection in
                    _ = try connection.queryEach([
                        "INSERT INTO p (id, note) VALUES (\(Int64(2)), 'x') RETURNING id",
                        "INSERT INTO p (id, note) VALUES (\(Int64(1)), 'y') RETURNING id",
                    ])
                }
            } throws: { error in
                (error as? DatabaseError)?.kind == .uniqueViolation
            }
            #expect(try await Self.ids(database) == [1])
        }
    }

    @Test func aCachedStatementGoingStaleInAReadsPipelineIsPreparedAgain() async throws {
        try await withTestDatabase(PostgresDatabase.Configuration(poolSize: 1)) { database, schema async throws in
            try await Self.makeTable(database)
            _ = try await database.write { try $0.execute("INSERT INTO p (id, note) VALUES (\(Int64(1)), 'a')") }
            let reads: [SQLQuery] = ["SELECT * FROM p WHERE id = \(Int64(1))", "SELECT COUNT(*) AS n FROM p"]
            _ = try await database.read { try $0.queryEach(reads) }
            try await onOwnThread {
                try schema.connect().executeScript("ALTER TABLE p ADD COLUMN x int8")
            }
            let answers = try await database.read { try $0.queryEach(reads) }
            #expect(answers.first?.first?.columns == ["id", "note", "x"])
            #expect(try answers.last?.first?.decode("n", as: Int64.self) == 1)
        }
    }
}
