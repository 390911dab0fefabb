import Foundation
import SQLiteDriver
import StoreSQL
import Testing

extension SQLiteDriverTests {
    /// The writer's WAL writes are gathered and written together when SQLite syncs or reads the
    /// file (the shim's `store-gathered-wal` VFS): fewer system calls, the same bytes on disk, each
    /// commit there before it returns.
    @Suite struct GatheredWAL {
        @Test func aCommitOfManyPagesIsWrittenInAFewWrites() async throws {
            try await withDatabase { database, _ in
                try await createBlobs(database)
                let before = try #require(try await database.writerWALWrites())
                // 64 rows of 3,000 bytes: a page each, two writes asked per page (frame header, page).
                _ = try await database.write { connection in
                    for id in 0..<64 {
                        try connection.execute("INSERT INTO blobs (id, body) VALUES (\(id), \(Self.body(id, 3_000)))")
                    }
                }
                let after = try #require(try await database.writerWALWrites())
                let asked = after.asked - before.asked
                let made = after.made - before.made
                #expect(asked >= 128)
                // At most 64 KiB a write: sixteen frames, 32 writes asked.
                #expect(made >= 1 && made * 16 <= asked)
                try await expectBlobs(database, ids: 0..<64, size: 3_000)
            }
        }

        @Test func eachCommitIsReadByTheReadersAsSoonAsItReturns() async throws {
            try await withDatabase { database, _ in
                try await createBlobs(database)
                for id in 0..<150 {
                    _ = try await database.write { connection in
                        try connection.execute("INSERT INTO blobs (id, body) VALUES (\(id), \(Self.body(id, 5_000)))")
                    }
                    // Another connection, with its own file descriptor for the WAL: it reads what
                    // the file holds, so every frame of the commit must be in it.
                    let read = try await database.read { connection in
                        try connection.queryFirst("SELECT body FROM blobs WHERE id = \(id)")?.decode(
                            "body", as: [UInt8].self)
                    }
                    #expect(read == Self.body(id, 5_000))
                }
                let writes = try #require(try await database.writerWALWrites())
                #expect(writes.made < writes.asked)
            }
        }

        /// A transaction larger than the writer's page cache (2 MB): SQLite writes frames before the
        /// commit, reads some back, and writes pages it changes again over their frames in place.
        @Test func aTransactionLargerThanThePageCacheIsWrittenExactly() async throws {
            try await withDatabase { database, path in
                try await createBlobs(database)
                _ = try await database.write { connection in
                    for id in 0..<1_500 {
                        try connection.execute("INSERT INTO blobs (id, body) VALUES (\(id), \(Self.body(id, 3_000)))")
                    }
                    // Rows written (and spilled) earlier in this transaction, changed again.
                    for id in stride(from: 0, to: 1_500, by: 7) {
                        try connection.execute(
                            "UPDATE blobs SET body = \(Self.body(id + 10_000, 3_000)) WHERE id = \(id)")
                    }
                }
                // Pages spill one at a time, and a read of the file writes what was gathered first:
                // fewer writes are joined here than in a commit.
                let writes = try #require(try await database.writerWALWrites())
                #expect(writes.made < writes.asked)
                try await expectBlobs(database, ids: 0..<1_500, size: 3_000) { $0 % 7 == 0 ? $0 + 10_000 : $0 }
                let check = try await database.read { connection in
                    try connection.queryFirst("PRAGMA integrity_check")?.decode("integrity_check", as: String.self)
                }
                #expect(check == "ok")

                // And from the file alone, by a database opened anew after this one is closed.
                await database.close()
                let reopened = try await SQLiteDatabase.open(path: path)
                try await expectBlobs(reopened, ids: 0..<1_500, size: 3_000) { $0 % 7 == 0 ? $0 + 10_000 : $0 }
                await reopened.close()
            }
        }

        @Test func aWriterWhoseCommitsAreNotEachSyncedWritesAsAsked() async throws {
            // With synchronous=NORMAL SQLite publishes a commit to the other connections without a
            // sync, the moment gathered writes would still be in memory: no gathering then.
            try await withDatabase(SQLiteDatabase.Configuration(synchronous: .normal)) { database, _ in
                try await createBlobs(database)
                _ = try await database.write { connection in
                    try connection.execute("INSERT INTO blobs (id, body) VALUES (1, \(Self.body(1, 3_000)))")
                }
                #expect(try await database.writerWALWrites() == nil)
                try await expectBlobs(database, ids: 1..<2, size: 3_000)
            }
        }

        /// `size` bytes that differ from one `seed` to the next.
        static func body(_ seed: Int, _ size: Int) -> [UInt8] {
            (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed &* 131 &+ $0 >> 8) }
        }

        private func createBlobs(_ database: SQLiteDatabase) async throws {
            try await database.write { connection in
                try connection.executeScript("CREATE TABLE blobs (id INTEGER PRIMARY KEY, body BLOB NOT NULL);")
            }
        }

        /// Every row in `ids` holds `body(seed(id), size)`, and there is no other row.
        private func expectBlobs(
            _ database: SQLiteDatabase, ids: Range<Int>, size: Int, seed: @escaping @Sendable (Int) -> Int = { $0 }
        ) async throws {
            let rows = try await database.read { connection in
                try connection.query("SELECT id, body FROM blobs ORDER BY id").map {
                    (try $0.decode("id", as: Int.self), try $0.decode("body", as: [UInt8].self))
                }
            }
            #expect(rows.map(\.0) == Array(ids))
            let wrong = rows.filter { $0.1 != Self.body(seed($0.0), size) }.map(\.0)
            #expect(wrong.isEmpty, "rows whose bytes differ: \(wrong.prefix(10))")
        }
    }
}
