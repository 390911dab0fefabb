import Dispatch
import Foundation
import PostgresDriver
import StoreSQL
import Testing

@Suite(.enabled(if: PostgresTestEnvironment.isAvailable, PostgresTestEnvironment.skipReason))
struct PostgresDatabaseTests {
    // MARK: Opening and closing

    @Test func openingWithAnUnreachableServerFailsWithoutThePassword() async throws {
        let url = "postgres://postgres:top-secret-pw@127.0.0.1:1/store_test?connect_timeout=5"
        await #expect {
            _ = try await PostgresDatabase(url: url)
        } throws: { error in
            guard let error = error as? DatabaseError else { return false }
            return error.kind == .connectionFailed && !error.message.contains("top-secret-pw")
        }
    }

    @Test func anInvalidConfigurationIsMisuse() async throws {
        let url = try PostgresTestEnvironment.requiredURL()
        for configuration in [
            PostgresDatabase.Configuration(poolSize: 0), PostgresDatabase.Configuration(maxRetries: -1),
        ] {
            await #expect {
                _ = try await PostgresDatabase(url: url, configuration: configuration)
            } throws: { error in
                (error as? DatabaseError)?.kind == .misuse
            }
        }
    }

    @Test func callsAfterCloseThrowMisuse() async throws {
        try await withTestDatabase { database, _ async throws in
            #expect(try await database.read { try $0.queryFirst("SELECT 1 AS one")?.values } == [.integer(1)])
            await database.close()
            await database.close()  // harmless
            for call in 0..<2 {
                await #expect {
                    if call == 0 {
                        _ = try await database.read { try $0.query("SELECT 1") }
                    } else {
                        _ = try await database.write { try $0.execute("SELECT 1") }
                    }
                } throws: { error in
                    guard let error = error as? DatabaseError else { return false }
                    return error.kind == .misuse && error.message == "database is closed"
                }
            }
        }
    }

    @Test func closeFinishesQueuedWork() async throws {
        try await withTestDatabase(PostgresDatabase.Configuration(poolSize: 1)) { database, schema async throws in
            try await database.write { try $0.executeScript("CREATE TABLE q (id int8 PRIMARY KEY)") }
            let started = DispatchSemaphore(value: 0)
            let first = Task {
                try await database.write { connection in
                    started.signal()
                    try connection.execute("SELECT pg_sleep(0.3)")
                    return try connection.execute("INSERT INTO q VALUES (0)")
                }
            }
            // The first write holds the only connection; the next ones queue up behind it.
            try await onOwnThread { _ = started.wait(timeout: .now() + 10) }
            let queued = (1...4).map { id in
                Task { try await database.write { try $0.execute("INSERT INTO q VALUES (\(id))") } }
            }
            try await Task.sleep(for: .milliseconds(100))
            await database.close()

            #expect(try await first.value == 1)
            var succeeded = 1
            for task in queued {
                do {
                    _ = try await task.value
                    succeeded += 1
                } catch let error as DatabaseError {
                    // Only a write that had not reached the queue yet may be refused.
                    #expect(error.message == "database is closed")
                }
            }
            let rows = try await onOwnThread { try schema.connect().query("SELECT id FROM q").count }
            #expect(rows == succeeded)
        }
    }

    // MARK: Reads and writes

    @Test func readsSeeCommittedWrites() async throws {
        try await withTestDatabase { database, _ async throws in
            try await database.write { connection in
                try connection.executeScript("CREATE TABLE products (id int8 PRIMARY KEY, title text NOT NULL)")
            }
            let inserted = try await database.write { connection in
                try connection.execute("INSERT INTO products VALUES (1, \("Water bottle")), (2, \("Mug"))")
            }
            #expect(inserted == 2)
            let titles = try await database.read { connection in
                try connection.query("SELECT title FROM products ORDER BY id").map {
                    try $0.decode("title", as: String.self)
                }
            }
            #expect(titles == ["Water bottle", "Mug"])
        }
    }

    @Test func aWriteRollsBackWhenItsBodyThrows() async throws {
        try await withTestDatabase { database, _ async throws in
            try await database.write { try $0.executeScript("CREATE TABLE t (id int8 PRIMARY KEY)") }
            await #expect(throws: IntentionalError.self) {
                try await database.write { connection in
                    try connection.execute("INSERT INTO t VALUES (1)")
                    throw IntentionalError()
                }
            }
            let count = try await database.read { try $0.query("SELECT id FROM t").count }
            #expect(count == 0)
        }
    }

    @Test func aWriteWhoseBodySwallowsADatabaseErrorDoesNotCommit() async throws {
        try await withTestDatabase { database, _ async throws in
            try await database.write { try $0.executeScript("CREATE TABLE t (id int8 PRIMARY KEY)") }
            _ = try await database.write { try $0.execute("INSERT INTO t VALUES (1)") }
            await #expect {
                try await database.write { connection in
                    try connection.execute("INSERT INTO t VALUES (2)")
                    _ = try? connection.execute("INSERT INTO t VALUES (1)")  // duplicate, error ignored
                }
            } throws: { error in
                (error as? DatabaseError)?.kind == .uniqueViolation
            }
            let ids = try await database.read { try $0.query("SELECT id FROM t ORDER BY id").map(\.values) }
            #expect(ids == [[.integer(1)]])
        }
    }

    @Test func readsAreReadOnly() async throws {
        try await withTestDatabase { database, _ async throws in
            try await database.write { try $0.executeScript("CREATE TABLE t (id int8 PRIMARY KEY)") }
            await #expect {
                try await database.read { try $0.execute("INSERT INTO t VALUES (1)") }
            } throws: { error in
                (error as? DatabaseError)?.code == "25006"
            }
            // A transaction a read leaves open is rolled back, and the connection is reused cleanly.
            _ = try await database.read { try $0.executeScript("BEGIN") }
            let status = try await database.read { connection in
                try connection.queryFirst("SELECT count(*)::int8 AS n FROM t")?.values
            }
            #expect(status == [.integer(0)])
        }
    }

    @Test func aHundredConcurrentIncrementsEndAtExactlyAHundred() async throws {
        try await withTestDatabase { database, _ async throws in
            try await database.write { connection in
                try connection.executeScript(
                    "CREATE TABLE counter (id int8 PRIMARY KEY, n int8 NOT NULL); INSERT INTO counter VALUES (1, 0)")
            }
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        try await database.write { try $0.execute("UPDATE counter SET n = n + 1 WHERE id = 1") }
                    }
                }
                for try await updated in group { #expect(updated == 1) }
            }
            let n = try await database.read { try $0.queryFirst("SELECT n FROM counter")?.decode("n", as: Int64.self) }
            #expect(n == 100)
        }
    }

    @Test func serializationFailuresAreRetriedUntilBothTransactionsCommit() async throws {
        let configuration = PostgresDatabase.Configuration(poolSize: 2, isolation: .serializable)
        try await withTestDatabase(configuration) { database, _ async throws in
            try await database.write { connection in
                try connection.executeScript(
                    "CREATE TABLE counter (id int8 PRIMARY KEY, n int8 NOT NULL); INSERT INTO counter VALUES (1, 0)")
            }
            let attempts = LockedCounter()
            let bothRead = ThreadBarrier(parties: 2)
            let firstAttempts = LockedCounter()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        try await database.write { connection in
                            attempts.increment()
                            let n = try #require(try connection.queryFirst("SELECT n FROM counter WHERE id = 1"))
                                .decode("n", as: Int64.self)
                            // Both transactions read before either writes, but only on their first attempt.
                            if firstAttempts.increment() <= 2 { bothRead.arriveAndWait() }
                            try connection.execute("UPDATE counter SET n = \(n + 1) WHERE id = 1")
                        }
                    }
                }
                try await group.waitForAll()
            }
            let n = try await database.read { try $0.queryFirst("SELECT n FROM counter")?.decode("n", as: Int64.self) }
            #expect(n == 2)  // no lost update: the loser read again and added its one
            #expect(attempts.value >= 3)  // at least one transaction ran again
        }
    }

    @Test func aConflictThatKeepsRecurringEndsAsRetriesExhausted() async throws {
        let configuration = PostgresDatabase.Configuration(poolSize: 1, maxRetries: 3)
        try await withTestDatabase(configuration) { database, _ async throws in
            let attempts = LockedCounter()
            await #expect {
                try await database.write { _ in
                    attempts.increment()
                    throw DatabaseError(kind: .serializationFailure, code: "40001", message: "could not serialize")
                }
            } throws: { error in
                guard let error = error as? DatabaseError else { return false }
                return error.kind == .retriesExhausted && error.code == "40001"
                    && error.message == "could not serialize"
            }
            #expect(attempts.value == 4)  // the first attempt and three retries
        }
    }

    @Test func aDeadlockIsRetried() async throws {
        let configuration = PostgresDatabase.Configuration(poolSize: 2)
        try await withTestDatabase(configuration) { database, _ async throws in
            try await database.write { connection in
                try connection.executeScript(
                    "CREATE TABLE acct (id int8 PRIMARY KEY, n int8 NOT NULL); INSERT INTO acct VALUES (1, 0), (2, 0)")
            }
            let attempts = LockedCounter()
            let bothLocked = ThreadBarrier(parties: 2)
            let firstAttempts = LockedCounter()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (first, second) in [(Int64(1), Int64(2)), (Int64(2), Int64(1))] {
                    group.addTask {
                        try await database.write { connection in
                            attempts.increment()
                            try connection.execute("UPDATE acct SET n = n + 1 WHERE id = \(first)")
                            if firstAttempts.increment() <= 2 { bothLocked.arriveAndWait() }
                            try connection.execute("UPDATE acct SET n = n + 1 WHERE id = \(second)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            let total = try await database.read {
                try $0.queryFirst("SELECT sum(n)::int8 AS total FROM acct")?.decode("total", as: Int64.self)
            }
            #expect(total == 4)
            // One of the two was chosen as the victim and ran again (its retry can, rarely, deadlock
            // once more with the winner before the winner gets its second row).
            #expect(attempts.value >= 3)
        }
    }

    @Test func aCachedStatementGoingStaleInsideAWriteIsRetried() async throws {
        try await withTestDatabase(PostgresDatabase.Configuration(poolSize: 1)) { database, schema async throws in
            try await database.write { connection in
                try connection.executeScript("CREATE TABLE s (id int8 PRIMARY KEY); INSERT INTO s VALUES (1)")
            }
            let select: SQLQuery = "SELECT * FROM s WHERE id = \(Int64(1))"
            _ = try await database.write { try $0.query(select) }
            // Another server (here: another connection) changes the table's shape.
            try await onOwnThread {
                try schema.connect().executeScript("ALTER TABLE s ADD COLUMN x int8")
            }
            let columns = try await database.write { try $0.query(select).first?.columns }
            #expect(columns == ["id", "x"])
        }
    }

    // MARK: Threads

    @Test func bodiesRunOffTheConcurrencyPoolAndInParallel() async throws {
        try await withTestDatabase(PostgresDatabase.Configuration(poolSize: 4)) { database, _ async throws in
            let allInside = ThreadBarrier(parties: 4)
            let release = DispatchSemaphore(value: 0)
            let reads = (0..<4).map { _ in
                Task {
                    try await database.read { connection in
                        // All four bodies are inside at once: the pool runs them in parallel.
                        let together = allInside.arriveAndWait()
                        _ = release.wait(timeout: .now() + 10)
                        return together && !Thread.isMainThread
                    }
                }
            }
            // While every body blocks its thread, the concurrency pool still runs this task.
            try await Task.sleep(for: .milliseconds(20))
            for _ in 0..<4 { release.signal() }
            for read in reads { #expect(try await read.value) }
        }
    }

    // MARK: Broken connections

    @Test func aTerminatedConnectionIsReplacedBeforeTheNextJob() async throws {
        try await withTestDatabase(PostgresDatabase.Configuration(poolSize: 1)) { database, _ async throws in
            let pid = try await database.read {
                try $0.queryFirst("SELECT pg_backend_pid()::int8 AS pid")?.decode("pid", as: Int64.self)
            }
            try await terminateBackend(try #require(pid))

            let newPID = try await database.read {
                try $0.queryFirst("SELECT pg_backend_pid()::int8 AS pid")?.decode("pid", as: Int64.self)
            }
            #expect(newPID != pid)

            try await terminateBackend(try #require(newPID))
            try await database.write { try $0.executeScript("CREATE TABLE after_break (id int8)") }
            let count = try await database.read { try $0.query("SELECT * FROM after_break").count }
            #expect(count == 0)
        }
    }

    @Test func aJobRunningWhenItsConnectionBreaksFailsAndLaterJobsSucceed() async throws {
        try await withTestDatabase(PostgresDatabase.Configuration(poolSize: 1)) { database, _ async throws in
            try await database.write { try $0.executeScript("CREATE TABLE w (id int8 PRIMARY KEY)") }
            let attempts = LockedCounter()
            let write = Task {
                try await database.write { connection in
                    attempts.increment()
                    try connection.execute("INSERT INTO w VALUES (1)")
                    try connection.execute("SELECT pg_sleep(30)")
                }
            }
            // Find the backend that is sleeping and terminate it.
            let pid = try await onOwnThread { () throws -> Int64 in
                let admin = try PostgresConnection(url: try PostgresTestEnvironment.requiredURL())
                for _ in 0..<500 {
                    let rows = try admin.query(
                        "SELECT pid::int8 AS pid FROM pg_stat_activity WHERE query LIKE \("SELECT pg_sleep(30)%")")
                    if let row = rows.first { return try row.decode("pid", as: Int64.self) }
                    Thread.sleep(forTimeInterval: 0.02)
                }
                throw IntentionalError()
            }
            try await terminateBackend(pid)

            await #expect {
                try await write.value
            } throws: { error in
                (error as? DatabaseError)?.kind == .connectionFailed
            }
            #expect(attempts.value == 1)  // not run again: its outcome is the caller's to decide
            _ = try await database.write { try $0.execute("INSERT INTO w VALUES (2)") }
            let ids = try await database.read { try $0.query("SELECT id FROM w ORDER BY id").map(\.values) }
            #expect(ids == [[.integer(2)]])
        }
    }
}

/// Terminates a server backend from a separate connection and waits until it is gone.
private func terminateBackend(_ pid: Int64) async throws {
    try await onOwnThread {
        let admin = try PostgresConnection(url: try PostgresTestEnvironment.requiredURL())
        _ = try admin.query("SELECT pg_terminate_backend(\(pid)::int4)")
        for _ in 0..<250 {
            if try admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = \(pid)::int4").isEmpty { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}
