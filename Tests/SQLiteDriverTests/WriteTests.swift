import Concurrency
import Foundation
import StoreSQL
import TestWaiting
import Testing

@testable import SQLiteDriver

extension SQLiteDriverTests {
    @Suite struct Writing {
        @Test func concurrentWritesAllCommitInFewerCommitsThanJobs() async throws {
            try await withDatabase { database, _ in
                try await createItems(database)
                let before = database.statistics()
                let jobs = 200
                let ids = try await withThrowingTaskGroup(of: Int64.self) { group in
                    for number in 0..<jobs {
                        group.addTask {
                            try await database.write { connection in
                                try connection.execute("INSERT INTO items (name) VALUES (\("item \(number)"))")
                                let row = try connection.queryFirst("SELECT last_insert_rowid() AS id")
                                return try #require(row).decode("id", as: Int64.self)
                            }
                        }
                    }
                    return try await group.reduce(into: [Int64]()) { $0.append($1) }
                }
                #expect(Set(ids).count == jobs)
                let names = try await itemNames(database)
                #expect(Set(names) == Set((0..<jobs).map { "item \($0)" }))

                let after = database.statistics()
                let commits = after.commits - before.commits
                #expect(after.committedJobs - before.committedJobs == jobs)
                #expect(after.failedJobs == before.failedJobs)
                #expect(commits >= 1)
                #expect(commits < jobs, "every write had a commit of its own: no batching happened")
                #expect(after.largestCommittedBatch > 1)
            }
        }

        @Test func theLogIsCheckpointedApartFromTheCommits() async throws {
            // With a checkpointer, the writer never checkpoints: the log grows past SQLite's
            // automatic threshold (1,000 pages) only until the checkpointer copies it into the file.
            let fast = SQLiteDatabase.Configuration(checkpointInterval: .milliseconds(50))
            try await withDatabase(fast) { database, path in
                try await createItems(database)
                let before = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
                for batch in 0..<20 {
                    _ = try await database.write { connection in
                        for index in 0..<200 {
                            try connection.execute(
                                "INSERT INTO items (name) VALUES (\(String(repeating: "x", count: 200) + "\(batch)-\(index)"))"
                            )
                        }
                    }
                }
                try await Task.sleep(for: .milliseconds(400))
                let after = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
                #expect(after > before + 400_000, "the checkpointer copied the log into the database file")
                #expect(try await itemNames(database).count == 4_000)
            }
            // Without one, SQLite checkpoints on its own and the data is there all the same.
            try await withDatabase(SQLiteDatabase.Configuration(checkpointInterval: nil)) { database, _ in
                try await createItems(database)
                _ = try await database.write { try $0.execute("INSERT INTO items (name) VALUES ('one')") }
                #expect(try await itemNames(database) == ["one"])
            }
        }

        @Test func theLogStartsOverWhileReadersNeverStop() async throws {
            // Readers that never pause always hold some older snapshot, so passive checkpoints never
            // copy the whole log and SQLite never starts it over: it would grow without end. Past the
            // limit the writer waits a moment for the readers and restarts it.
            let limit = 64
            let configuration = SQLiteDatabase.Configuration(
                synchronous: .normal, checkpointInterval: .milliseconds(5), logRestartFrames: limit,
                logRestartWait: .seconds(2))
            try await withDatabase(configuration) { database, path in
                try await createItems(database)
                let writing = Locked(true)
                let readers = (0..<4).map { _ in
                    Task {
                        var reads = 0
                        while writing.withLock({ $0 }) {
                            _ = try await database.read { connection in
                                try connection.query("SELECT id, name FROM items ORDER BY id DESC LIMIT 20")
                            }
                            reads += 1
                        }
                        return reads
                    }
                }
                var largestLog = 0
                for write in 0..<400 {
                    _ = try await database.write { connection in
                        for row in 0..<20 {
                            try connection.execute(
                                "INSERT INTO items (name) VALUES (\(String(repeating: "x", count: 300) + "\(write)-\(row)"))"
                            )
                        }
                    }
                    let log = writeAheadLogBytes(path)
                    largestLog = max(largestLog, log)
                }
                writing.withLock { $0 = false }
                var reads = 0
                for reader in readers { reads += try await reader.value }
                #expect(reads > 100, "the readers kept reading while the writes ran")
                #expect(database.statistics().logRestarts > 0)
                // A write adds about 10 frames of 4 KiB; a log restarted near the limit stays well
                // under four times it.
                #expect(largestLog < 4 * limit * 4_096, "the log grew to \(largestLog) bytes")
                #expect(try await itemNames(database).count == 8_000)
            }
        }

        @Test func aLogFileStretchedByOneLargeWriteIsCutBack() async throws {
            let limit = 64
            let configuration = SQLiteDatabase.Configuration(
                synchronous: .normal, checkpointInterval: .milliseconds(5), logRestartFrames: limit)
            try await withDatabase(configuration) { database, path in
                try await createItems(database)
                _ = try await database.write { connection in
                    for row in 0..<2_000 {
                        try connection.execute(
                            "INSERT INTO items (name) VALUES (\(String(repeating: "z", count: 300) + "\(row)"))")
                    }
                }
                let stretched = writeAheadLogBytes(path)
                let limitBytes = limit * (4_096 + 24) + 32
                #expect(stretched > 2 * limitBytes, "the large write did not stretch the log (\(stretched) bytes)")
                // The writer restarts the log after answering; the commit after that cuts the file.
                #expect(try await eventually { database.statistics().logRestarts == 1 })
                for write in 0..<3 {
                    _ = try await database.write {
                        try $0.execute("INSERT INTO items (name) VALUES (\("small \(write)"))")
                    }
                }
                let cut = writeAheadLogBytes(path)
                #expect(cut <= limitBytes, "the log file stayed at \(cut) bytes")
                #expect(try await itemNames(database).count == 2_003)
            }
        }

        @Test func aReaderHoldingAnOldSnapshotDelaysTheRestartButNoWrite() async throws {
            let configuration = SQLiteDatabase.Configuration(
                synchronous: .normal, checkpointInterval: .milliseconds(5), logRestartFrames: 16,
                logRestartWait: .milliseconds(20))
            try await withDatabase(configuration) { database, path in
                try await createItems(database)
                let entered = DispatchSemaphore(value: 0)
                let released = DispatchSemaphore(value: 0)
                let reader = Task {
                    try await database.read { connection in
                        // The read's snapshot holds while it waits.
                        _ = try connection.query("SELECT count(*) FROM items")
                        entered.signal()
                        released.wait()
                    }
                }
                #expect(try await eventually { entered.wait(timeout: .now()) == .success })
                for write in 0..<50 {
                    _ = try await database.write { connection in
                        for row in 0..<20 {
                            try connection.execute(
                                "INSERT INTO items (name) VALUES (\(String(repeating: "y", count: 300) + "\(write)-\(row)"))"
                            )
                        }
                    }
                }
                let held = database.statistics()
                #expect(held.failedJobs == 0)
                #expect(held.logRestarts == 0, "the log was restarted under a reader's snapshot")
                // It waited for the reader, then let the writes go on without waiting for it again at
                // every batch (it tries again a second later).
                #expect(held.logRestartsGivenUp >= 1)
                #expect(held.logRestartsGivenUp < 10)

                let log = writeAheadLogBytes(path)
                #expect(log > 16 * 4_096, "the log grew past the limit while the reader held on")

                // Once the reader is gone, the log starts over (the writer or SQLite restarts it) and
                // the file is cut back to about the limit (16 frames, and a write's few past it).
                released.signal()
                try await reader.value
                try await Task.sleep(for: .milliseconds(1_100))
                for write in 0..<50 {
                    _ = try await database.write {
                        try $0.execute("INSERT INTO items (name) VALUES (\("after \(write)"))")
                    }
                }
                let logAfter = writeAheadLogBytes(path)
                #expect(logAfter <= 2 * (16 * (4_096 + 24) + 32), "the log file stayed at \(logAfter) bytes")
                #expect(database.statistics().logRestartsGivenUp == held.logRestartsGivenUp)
            }
        }

        @Test func aWriteThatThrowsLeavesNothingBehind() async throws {
            try await withDatabase { database, _ in
                try await createItems(database)
                await #expect(throws: DeliberateError()) {
                    try await database.write { connection in
                        try connection.execute("INSERT INTO items (name) VALUES ('first')")
                        try connection.execute("INSERT INTO items (name) VALUES ('second')")
                        throw DeliberateError()
                    }
                }
                #expect(try await itemNames(database).isEmpty)
                // The writer is still healthy afterwards.
                _ = try await database.write { connection in
                    try connection.execute("INSERT INTO items (name) VALUES ('ok')")
                }
                #expect(try await itemNames(database) == ["ok"])
            }
        }

        @Test func aThrowingJobInABatchRollsBackOnlyItsOwnRows() async throws {
            try await withDatabase { database, _ in
                try await createItems(database)
                let gate = try await WriterGate(database)
                let commitsBefore = database.statistics().commits

                let first = Task {
                    _ = try await database.write { connection in
                        try connection.execute("INSERT INTO items (name) VALUES ('first')")
                    }
                }
                // Queued one after the other, so the batch runs them in this order.
                #expect(try await eventually { database.statistics().queuedJobs == 1 })
                let failing = Task {
                    try await database.write { connection in
                        try connection.execute("INSERT INTO items (name) VALUES ('failing 1')")
                        try connection.execute("INSERT INTO items (name) VALUES ('failing 2')")
                        throw DeliberateError()
                    }
                }
                #expect(try await eventually { database.statistics().queuedJobs == 2 })
                let duplicate = Task {
                    _ = try await database.write { connection in
                        try connection.execute("INSERT INTO items (name) VALUES ('duplicate 1')")
                        try connection.execute("INSERT INTO items (name) VALUES ('first')")
                    }
                }
                #expect(try await eventually { database.statistics().queuedJobs == 3 })
                let last = Task {
                    _ = try await database.write { connection in
                        try connection.execute("INSERT INTO items (name) VALUES ('last')")
                    }
                }
                #expect(try await eventually { database.statistics().queuedJobs == 4 })
                try await gate.release()

                try await first.value
                await #expect(throws: DeliberateError()) { try await failing.value }
                let duplicateError = await #expect(throws: DatabaseError.self) { try await duplicate.value }
                #expect(duplicateError?.kind == .uniqueViolation)
                try await last.value

                #expect(try await itemNames(database) == ["first", "last"])
                // The holding job's own commit, then one commit for the four queued jobs: run first
                // without savepoints, rolled back at the failing job, then run with them.
                #expect(database.statistics().commits == commitsBefore + 2)
                #expect(database.statistics().batchesRunAgainWithSavepoints == 1)
                #expect(database.statistics().largestCommittedBatch >= 2)
            }
        }

        @Test func batchesRunWithoutSavepointsUntilAWriteFailsThenWithThemForAWhile() async throws {
            try await withDatabase { database, _ in
                try await createItems(database)
                func insert(_ name: String, failing: Bool = false) async throws {
                    _ = try await database.write { connection in
                        try connection.execute("INSERT INTO items (name) VALUES (\(name))")
                        if failing { throw DeliberateError() }
                    }
                }
                func reruns() -> Int { database.statistics().batchesRunAgainWithSavepoints }
                for number in 0..<20 { try await insert("ok \(number)") }
                #expect(reruns() == 0, "writes that succeed need no savepoints")

                await #expect(throws: DeliberateError()) { try await insert("failing", failing: true) }
                #expect(reruns() == 1)
                // The next batches (one write each here) go straight to savepoints: a failure
                // among them is not run twice.
                let straight = GroupCommitter.savepointBatchesAfterAFailure
                for number in 0..<straight - 1 { try await insert("after \(number)") }
                await #expect(throws: DeliberateError()) { try await insert("failing again", failing: true) }
                #expect(reruns() == 1)
                // Then without savepoints again.
                await #expect(throws: DeliberateError()) { try await insert("failing later", failing: true) }
                #expect(reruns() == 2)

                let names = try await itemNames(database)
                #expect(names == (0..<20).map { "ok \($0)" } + (0..<straight - 1).map { "after \($0)" })
            }
        }

        @Test func aTransactionRolledBackBySQLiteIsRunAgainWithoutTheJobThatCausedIt() async throws {
            try await withDatabase { database, _ in
                try await createItems(database)
                _ = try await database.write { connection in
                    try connection.execute("INSERT INTO items (name) VALUES ('taken')")
                }
                let gate = try await WriterGate(database)
                let before = database.statistics()
                let firstRuns = Counter()

                let first = Task {
                    _ = try await database.write { connection in
                        firstRuns.increment()
                        try connection.execute("INSERT INTO items (name) VALUES ('first')")
                    }
                }
                // Queued one after the other, so the batch runs them in this order.
                #expect(try await eventually { database.statistics().queuedJobs == 1 })
                // OR ROLLBACK makes SQLite abandon the whole transaction, the other jobs' rows included.
                let culprit = Task {
                    _ = try await database.write { connection in
                        try connection.execute("INSERT OR ROLLBACK INTO items (name) VALUES ('taken')")
                    }
                }
                #expect(try await eventually { database.statistics().queuedJobs == 2 })
                let last = Task {
                    _ = try await database.write { connection in
                        try connection.execute("INSERT INTO items (name) VALUES ('last')")
                    }
                }
                #expect(try await eventually { database.statistics().queuedJobs == 3 })
                try await gate.release()

                try await first.value
                let culpritError = await #expect(throws: DatabaseError.self) { try await culprit.value }
                #expect(culpritError?.kind == .uniqueViolation)
                try await last.value

                #expect(try await itemNames(database) == ["taken", "first", "last"])
                // Run without savepoints, again with them, and once more after SQLite's rollback.
                #expect(firstRuns.value == 3, "the job run before the rollback is run again")
                let after = database.statistics()
                #expect(after.batchesRunAgainWithSavepoints == before.batchesRunAgainWithSavepoints + 1)
                #expect(after.restartedTransactions == before.restartedTransactions + 1)
                // The holding job's own commit, then one for the restarted batch.
                #expect(after.commits == before.commits + 2)
                #expect(after.failedJobs == before.failedJobs + 1)
            }
        }

        @Test func aDeferredForeignKeyViolationFailsOnlyTheJobThatLeftIt() async throws {
            try await withDatabase { database, _ in
                _ = try await database.write { connection in
                    try connection.executeScript(
                        """
                        CREATE TABLE customers (id INTEGER PRIMARY KEY);
                        CREATE TABLE orders (
                            id INTEGER PRIMARY KEY,
                            customer_id INTEGER NOT NULL REFERENCES customers(id) DEFERRABLE INITIALLY DEFERRED
                        );
                        """)
                }
                let gate = try await WriterGate(database)
                let valid = Task {
                    _ = try await database.write { connection in
                        try connection.execute("INSERT INTO customers (id) VALUES (1)")
                        try connection.execute("INSERT INTO orders (id, customer_id) VALUES (1, 1)")
                    }
                }
                // Passes its statements (the check is deferred) but would make the COMMIT fail.
                let dangling = Task {
                    _ = try await database.write { connection in
                        try connection.execute("INSERT INTO orders (id, customer_id) VALUES (2, \(99))")
                    }
                }
                let resolved = Task {
                    _ = try await database.write { connection in
                        try connection.execute("INSERT INTO orders (id, customer_id) VALUES (3, 2)")
                        try connection.execute("INSERT INTO customers (id) VALUES (2)")
                    }
                }
                #expect(try await eventually { database.statistics().queuedJobs == 3 })
                try await gate.release()

                try await valid.value
                let error = await #expect(throws: DatabaseError.self) { try await dangling.value }
                #expect(error?.kind == .foreignKeyViolation)
                try await resolved.value
                let orders = try await database.read { connection in
                    try connection.query("SELECT id FROM orders ORDER BY id").map { try $0.decode("id", as: Int.self) }
                }
                #expect(orders == [1, 3])
            }
        }

        @Test func aWriteLockHeldElsewhereEndsInRetriesExhaustedThenTheWriterRecovers() async throws {
            let configuration = SQLiteDatabase.Configuration(busyTimeout: .milliseconds(20), transientAttemptLimit: 2)
            try await withDatabase(configuration) { database, path in
                try await createItems(database)
                let before = database.statistics()
                // Another connection (as another process would) holds the write lock.
                let other = try SQLiteConnection(path: path)
                try other.execute("BEGIN IMMEDIATE")
                let error = await #expect(throws: DatabaseError.self) {
                    try await database.write { connection in
                        try connection.execute("INSERT INTO items (name) VALUES ('blocked')")
                    }
                }
                #expect(error?.kind == .retriesExhausted)
                #expect(error?.code.hasPrefix("SQLITE_BUSY") == true)
                #expect(database.statistics().failedJobs == before.failedJobs + 1)

                try other.execute("ROLLBACK")
                _ = try await database.write { connection in
                    try connection.execute("INSERT INTO items (name) VALUES ('after')")
                }
                #expect(try await itemNames(database) == ["after"])
            }
        }

        @Test func jobsMayNotEndTheSharedTransactionButMayUseTheirOwnSavepoints() async throws {
            try await withDatabase { database, _ in
                try await createItems(database)
                for statement in ["COMMIT", "ROLLBACK", "BEGIN", "RELEASE storesql_job"] {
                    let error = await #expect(throws: DatabaseError.self) {
                        try await database.write { connection in
                            try connection.execute("INSERT INTO items (name) VALUES ('sneaky')")
                            try connection.execute(SQLQuery(unsafeSQL: statement))
                        }
                    }
                    #expect(error?.kind == .misuse, "\(statement)")
                }
                try await database.write { connection in
                    try connection.execute("SAVEPOINT attempt")
                    try connection.execute("INSERT INTO items (name) VALUES ('undone')")
                    try connection.execute("ROLLBACK TO attempt")
                    try connection.execute("RELEASE attempt")
                    try connection.execute("INSERT INTO items (name) VALUES ('kept')")
                }
                #expect(try await itemNames(database) == ["kept"])
            }
        }
    }

    @Suite struct Reading {
        @Test func aReaderCannotWrite() async throws {
            try await withDatabase { database, _ in
                try await createItems(database)
                let error = await #expect(throws: DatabaseError.self) {
                    try await database.read { connection in
                        try connection.execute("INSERT INTO items (name) VALUES ('smuggled')")
                    }
                }
                #expect(error?.kind == .misuse)
                #expect(error?.code == "SQLITE_READONLY (8)")
                let scriptError = await #expect(throws: DatabaseError.self) {
                    try await database.read { connection in try connection.executeScript("DELETE FROM items;") }
                }
                #expect(scriptError?.kind == .misuse)
                #expect(try await itemNames(database).isEmpty)
            }
        }

        @Test func noStatementCanLoosenTheConfiguredSettings() async throws {
            try await withDatabase { database, _ in
                let readerError = await #expect(throws: DatabaseError.self) {
                    try await database.read { connection in try connection.execute("PRAGMA query_only = OFF") }
                }
                #expect(readerError?.kind == .misuse)
                for pragma in ["synchronous = OFF", "main.foreign_keys=0", "JOURNAL_MODE = DELETE"] {
                    let writerError = await #expect(throws: DatabaseError.self) {
                        try await database.write { connection in
                            try connection.execute(SQLQuery(unsafeSQL: "PRAGMA \(pragma)"))
                        }
                    }
                    #expect(writerError?.kind == .misuse, "\(pragma)")
                }
                #expect(try await database.readerSettings().queryOnly)
                let writer = try await database.writerSettings()
                #expect(writer.synchronous == .full)
                #expect(writer.foreignKeys)
                #expect(writer.journalMode == "wal")
            }
        }

        /// A batch run again with a savepoint per write keeps their journals in memory (2), never in
        /// a temporary file.
        @Test func savepointJournalsStayInMemory() async throws {
            try await withDatabase { database, _ in
                let written = try await database.write { connection in
                    try connection.queryFirst("PRAGMA temp_store")?.values
                }
                let read = try await database.read { connection in
                    try connection.queryFirst("PRAGMA temp_store")?.values
                }
                #expect(written == [.integer(2)])
                #expect(read == [.integer(2)])
            }
        }

        @Test func aReadStartedAfterAWriteReturnedSeesIt() async throws {
            try await withDatabase(SQLiteDatabase.Configuration(readerCount: 3)) { database, _ in
                try await createItems(database)
                for number in 1...30 {
                    _ = try await database.write { connection in
                        try connection.execute("INSERT INTO items (name) VALUES (\("n\(number)"))")
                    }
                    let count = try await database.read { connection in
                        try connection.queryFirst("SELECT count(*) AS n FROM items")?.decode("n", as: Int.self)
                    }
                    #expect(count == number)
                }
            }
        }

        @Test func aReadSeesOneSnapshotAndTheNextReadTheNewestData() async throws {
            try await withDatabase(SQLiteDatabase.Configuration(readerCount: 1)) { database, _ in
                try await createItems(database)
                let entered = DispatchSemaphore(value: 0)
                let released = DispatchSemaphore(value: 0)
                let reader = Task {
                    try await database.read { connection in
                        let before = try connection.query("SELECT name FROM items").count
                        entered.signal()
                        released.wait()
                        return (before, try connection.query("SELECT name FROM items").count)
                    }
                }
                #expect(try await eventually { entered.wait(timeout: .now()) == .success })
                _ = try await database.write { connection in
                    try connection.execute("INSERT INTO items (name) VALUES ('new')")
                }
                released.signal()
                // Both statements of the read saw the moment of its first; the next read, the write.
                let (before, after) = try await reader.value
                #expect(before == 0 && after == 0)
                #expect(try await itemNames(database) == ["new"])
                let inTransaction = try await database.read { connection in
                    (connection as? SQLiteConnection)?.isInTransaction
                }
                #expect(inTransaction == true)  // the driver's read transaction
                let error = await #expect(throws: DatabaseError.self) {
                    try await database.read { connection in try connection.execute("BEGIN") }
                }
                #expect(error?.kind == .misuse)
            }
        }

        @Test func readsRunConcurrentlyWithAWrite() async throws {
            try await withDatabase { database, _ in
                try await createItems(database)
                let gate = try await WriterGate(database)
                // The writer is busy inside a transaction; readers still answer from the last commit.
                #expect(try await itemNames(database).isEmpty)
                try await gate.release()
            }
        }
    }
}

/// The size of the database's write-ahead log file, 0 when there is none. SQLite reuses the file from
/// its start after a restart and cuts it back only to the configured limit, so this is the longest
/// the log has been since then.
private func writeAheadLogBytes(_ databasePath: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: databasePath + "-wal")[.size] as? Int) ?? 0
}
