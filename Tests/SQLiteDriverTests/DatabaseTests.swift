import Foundation
import SQLiteDriver
import StoreSQL
import TestWaiting
import Testing

extension SQLiteDriverTests {
    @Suite struct Opening {
        @Test func opensWritesReadsAndCloses() async throws {
            try await withTemporaryDirectory { directory in
                let path = directory + "/store.sqlite"
                let database = try SQLiteDatabase(path: path)
                try await createItems(database)
                _ = try await database.write { connection in
                    try connection.execute("INSERT INTO items (name) VALUES ('mug')")
                }
                #expect(try await itemNames(database) == ["mug"])
                await database.close()
                #expect(FileManager.default.fileExists(atPath: path))

                // The data is in the file: a new database on the same path sees it.
                let reopened = try await SQLiteDatabase.open(path: path)
                #expect(try await itemNames(reopened) == ["mug"])
                await reopened.close()
            }
        }

        @Test func aPathInAMissingDirectoryFailsClearly() async throws {
            try await withTemporaryDirectory { directory in
                let path = directory + "/missing/store.sqlite"
                for _ in 0..<20 {
                    let error = #expect(throws: DatabaseError.self) { try SQLiteDatabase(path: path) }
                    #expect(error?.kind == .connectionFailed)
                    #expect(error?.code.hasPrefix("SQLITE_CANTOPEN") == true)
                    #expect(error?.message.contains(path) == true)
                }
                #expect((try? openFileDescriptorCount(under: directory)) == 0, "failed opens leaked descriptors")
                #expect(!FileManager.default.fileExists(atPath: directory + "/missing"))
            }
        }

        @Test func aFileThatIsNotADatabaseFailsClearlyAndIsLeftAlone() async throws {
            try await withTemporaryDirectory { directory in
                let path = directory + "/notes.txt"
                let content = Data(String(repeating: "not a database, just some notes\n", count: 200).utf8)
                try content.write(to: URL(fileURLWithPath: path))
                for _ in 0..<20 {
                    let error = #expect(throws: DatabaseError.self) { try SQLiteDatabase(path: path) }
                    #expect(error?.kind == .corrupt)
                    #expect(error?.code == "SQLITE_NOTADB (26)")
                    let connectionError = #expect(throws: DatabaseError.self) { try SQLiteConnection(path: path) }
                    #expect(connectionError?.kind == .corrupt)
                }
                #expect((try? openFileDescriptorCount(under: directory)) == 0, "failed opens leaked descriptors")
                #expect(FileManager.default.contents(atPath: path) == content)
            }
        }

        @Test func anInvalidConfigurationIsRefused() async throws {
            try await withTemporaryDirectory { directory in
                for configuration in [
                    SQLiteDatabase.Configuration(readerCount: 0),
                    SQLiteDatabase.Configuration(maxBatchSize: 0),
                    SQLiteDatabase.Configuration(transientAttemptLimit: 0),
                ] {
                    let error = #expect(throws: DatabaseError.self) {
                        try SQLiteDatabase(path: directory + "/store.sqlite", configuration: configuration)
                    }
                    #expect(error?.kind == .misuse)
                }
            }
        }

        @Test func settingsAreReadBackAsAsked() async throws {
            try await withDatabase { database, path in
                let writer = try await database.writerSettings()
                #expect(
                    writer
                        == SQLiteSettings(
                            journalMode: "wal", synchronous: .full, foreignKeys: true, busyTimeoutMilliseconds: 5000,
                            queryOnly: false))
                let reader = try await database.readerSettings()
                #expect(reader.journalMode == "wal")
                #expect(reader.foreignKeys)
                #expect(reader.queryOnly)

                // A second, independent connection finds the file itself in WAL mode (a reader connection
                // only reads the journal mode, it never sets it)…
                let second = try SQLiteConnection(path: path, options: .init(role: .reader))
                #expect(try second.settings().journalMode == "wal")
                // …and so does the file header: bytes 18 and 19 (write and read format versions) are 2 for WAL.
                let header = try #require(FileManager.default.contents(atPath: path)?.prefix(100))
                #expect(Array(header.prefix(16)) == Array("SQLite format 3\u{0}".utf8))
                #expect(header[header.startIndex + 18] == 2)
                #expect(header[header.startIndex + 19] == 2)
            }
        }

        @Test func synchronousNormalCanBeChosenForBenchmarks() async throws {
            let configuration = SQLiteDatabase.Configuration(synchronous: .normal, busyTimeout: .milliseconds(1500))
            try await withDatabase(configuration) { database, _ in
                let writer = try await database.writerSettings()
                #expect(writer.synchronous == .normal)
                #expect(writer.busyTimeoutMilliseconds == 1500)
            }
        }

        @Test func aReaderConnectionRefusesADatabaseNotInWALMode() async throws {
            try await withTemporaryDirectory { directory in
                let error = #expect(throws: DatabaseError.self) {
                    try SQLiteConnection(path: directory + "/fresh.sqlite", options: .init(role: .reader))
                }
                #expect(error?.kind == .connectionFailed)
                #expect(error?.code == "configuration")
            }
        }

        @Test func closeDrainsQueuedWorkThenRefusesCalls() async throws {
            try await withDatabase { database, _ in
                try await createItems(database)
                let gate = try await WriterGate(database)
                let writes = Task {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for number in 0..<5 {
                            group.addTask {
                                _ = try await database.write { connection in
                                    try connection.execute("INSERT INTO items (name) VALUES (\("queued \(number)"))")
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
                #expect(try await eventually { database.statistics().queuedJobs == 5 })
                let closing = Task { await database.close() }
                // Once closing has begun, new calls are refused…
                var refused: DatabaseError?
                for _ in 0..<10_000 where refused == nil {
                    do {
                        _ = try await database.read { _ in 0 }
                        try await Task.sleep(for: .milliseconds(1))
                    } catch let error as DatabaseError {
                        refused = error
                    }
                }
                #expect(refused?.message == "database is closed")
                // …while the writes queued before it still commit.
                try await gate.release()
                try await writes.value
                await closing.value
                #expect(database.statistics().committedJobs == 7)

                let readError = await #expect(throws: DatabaseError.self) { try await database.read { _ in 1 } }
                #expect(readError?.kind == .misuse)
                #expect(readError?.message == "database is closed")
                let writeError = await #expect(throws: DatabaseError.self) { try await database.write { _ in 1 } }
                #expect(writeError?.kind == .misuse)
                await database.close()  // closing twice is harmless
            }
        }
    }
}
