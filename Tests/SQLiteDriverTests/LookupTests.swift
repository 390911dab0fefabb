import Concurrency
import Dispatch
import Foundation
import SQLiteDriver
import StoreSQL
import TestWaiting
import Testing

extension SQLiteDriverTests {
    /// `lookup`: a read of a few rows by key, run at once on the caller's thread when a lookup
    /// connection is free, and handed to the readers otherwise. Which connection ran it shows in its
    /// busy timeout: 0 on a lookup connection, which never waits for a lock, 5 s on a reader.
    @Suite struct Lookups {
        @Test func aLookupRunsOnTheCallersThreadAndSeesEveryReturnedWrite() async throws {
            try await withDatabase { database, _ in
                try await createItems(database)
                for name in ["mug", "tea", "spoon"] {
                    _ = try await database.write { connection in
                        try connection.execute("INSERT INTO items (name) VALUES (\(name))")
                    }
                    let found = try await database.lookup { connection in
                        (
                            try connection.queryFirst("SELECT name FROM items WHERE name = \(name)")?
                                .decode("name", as: String.self),
                            try busyTimeout(connection)
                        )
                    }
                    #expect(found.0 == name)
                    #expect(found.1 == 0)
                }
                #expect(database.lookupStatistics().ranOnCaller == 3)
                #expect(database.lookupStatistics().handedToReaders == 0)
            }
        }

        @Test func aLookupDoesNotWaitBehindABusyReader() async throws {
            try await withDatabase(SQLiteDatabase.Configuration(readerCount: 1)) { database, _ in
                try await createItems(database)
                let entered = DispatchSemaphore(value: 0)
                let released = DispatchSemaphore(value: 0)
                let slowRead = Task {
                    try await database.read { _ in
                        entered.signal()
                        released.wait()
                    }
                }
                #expect(try await eventually { entered.wait(timeout: .now()) == .success })
                // The one reader is held; the lookup still answers.
                let count = try await database.lookup { connection in
                    try connection.queryFirst("SELECT count(*) AS n FROM items")?.decode("n", as: Int.self)
                }
                #expect(count == 0)
                released.signal()
                try await slowRead.value
            }
        }

        @Test func aLookupIsHandedToTheReadersWhenEveryLookupConnectionIsInUse() async throws {
            let configuration = SQLiteDatabase.Configuration(readerCount: 1, lookupConnectionCount: 1)
            try await withDatabase(configuration) { database, _ in
                try await createItems(database)
                let (started, signal) = AsyncStream.makeStream(of: Void.self)
                let released = DispatchSemaphore(value: 0)
                // Holds the one lookup connection (and, for as long, one thread of the concurrency pool).
                let holding = Task {
                    try await database.lookup { _ in
                        signal.yield()
                        released.wait()
                    }
                }
                var iterator = started.makeAsyncIterator()
                await iterator.next()
                let timeout = try await database.lookup { connection in try busyTimeout(connection) }
                released.signal()
                try await holding.value
                #expect(timeout == 5_000)
                #expect(database.lookupStatistics().ranOnCaller == 1)
                #expect(database.lookupStatistics().handedToReaders == 1)
            }
        }

        @Test func aLookupThatMeetsALockRunsAgainOnAReader() async throws {
            try await withDatabase { database, _ in
                try await createItems(database)
                let runs = Locked<[Int?]>([])
                try await database.lookup { connection in
                    let timeout = try busyTimeout(connection)
                    let first = runs.withLock { runs in
                        runs.append(timeout)
                        return runs.count == 1
                    }
                    if first {
                        throw DatabaseError(kind: .busy, code: "SQLITE_BUSY (5)", message: "database is locked")
                    }
                }
                // First on a lookup connection, then again on a reader, which waits for locks.
                #expect(runs.withLock { $0 } == [0, 5_000] as [Int?])
                #expect(database.lookupStatistics() == statistics(ranOnCaller: 1, handedToReaders: 1))
            }
        }

        @Test func aLookupConnectionNeverWaitsForALockAndRefusesWrites() async throws {
            try await withDatabase { database, _ in
                try await createItems(database)
                #expect(try await database.lookup { connection in try busyTimeout(connection) } == 0)
                let error = await #expect(throws: DatabaseError.self) {
                    try await database.lookup { connection in
                        try connection.execute("INSERT INTO items (name) VALUES ('mug')")
                    }
                }
                #expect(error?.kind == .misuse)
                #expect(try await itemNames(database).isEmpty)
                // Not handed on: a refused write is not a lock.
                #expect(database.lookupStatistics() == statistics(ranOnCaller: 2, handedToReaders: 0))
            }
        }

        @Test func aLookupMayNotOpenATransactionAndTheNextSeesTheNewestData() async throws {
            let configuration = SQLiteDatabase.Configuration(lookupConnectionCount: 1)
            try await withDatabase(configuration) { database, _ in
                try await createItems(database)
                let error = await #expect(throws: DatabaseError.self) {
                    try await database.lookup { connection in try connection.execute("BEGIN") }
                }
                #expect(error?.kind == .misuse)
                let before = try await database.lookup { connection in
                    try connection.query("SELECT name FROM items").count
                }
                _ = try await database.write { connection in
                    try connection.execute("INSERT INTO items (name) VALUES ('mug')")
                }
                // The same (only) connection: the snapshot of the lookup before ended with it.
                let after = try await database.lookup { connection in
                    try connection.query("SELECT name FROM items").count
                }
                #expect(before == 0)
                #expect(after == 1)
                #expect(database.lookupStatistics().ranOnCaller == 3)
            }
        }

        @Test func withoutLookupConnectionsEveryLookupIsARead() async throws {
            try await withDatabase(SQLiteDatabase.Configuration(lookupConnectionCount: 0)) { database, _ in
                try await createItems(database)
                #expect(try await database.lookup { connection in try busyTimeout(connection) } == 5_000)
                #expect(database.lookupStatistics() == statistics(ranOnCaller: 0, handedToReaders: 1))
            }
        }

        @Test func afterCloseALookupFailsAndItsConnectionsAreClosed() async throws {
            try await withTemporaryDirectory { directory in
                let database = try await SQLiteDatabase.open(
                    path: directory + "/store.sqlite",
                    configuration: SQLiteDatabase.Configuration(readerCount: 1, lookupConnectionCount: 3))
                try await createItems(database)
                _ = try await database.lookup { connection in try connection.query("SELECT * FROM items") }
                await database.close()
                let error = await #expect(throws: DatabaseError.self) {
                    try await database.lookup { connection in try connection.query("SELECT * FROM items") }
                }
                #expect(error?.kind == .misuse)
                #expect((try? openFileDescriptorCount(under: directory)) == 0, "a connection was left open")
            }
        }

        @Test func aNegativeLookupConnectionCountIsRefused() async throws {
            try await withTemporaryDirectory { directory in
                let error = #expect(throws: DatabaseError.self) {
                    try SQLiteDatabase(
                        path: directory + "/store.sqlite",
                        configuration: SQLiteDatabase.Configuration(lookupConnectionCount: -1))
                }
                #expect(error?.kind == .misuse)
            }
        }
    }
}

private func statistics(ranOnCaller: Int, handedToReaders: Int) -> SQLiteLookupStatistics {
    var statistics = SQLiteLookupStatistics()
    statistics.ranOnCaller = ranOnCaller
    statistics.handedToReaders = handedToReaders
    return statistics
}

/// How long `connection` waits for a lock, in milliseconds.
private func busyTimeout(_ connection: any SQLConnection) throws -> Int? {
    try connection.queryFirst("PRAGMA busy_timeout")?.decode("timeout", as: Int.self)
}
