import Concurrency

/// What ``SQLiteDatabase/lookup(_:)`` did so far.
public struct SQLiteLookupStatistics: Sendable, Hashable {
    /// Lookups run at once on their callers' threads, with a lookup connection.
    public var ranOnCaller = 0
    /// Lookups handed to the reader threads: every lookup connection was in use, the lookup met a
    /// lock, or there are no lookup connections.
    public var handedToReaders = 0

    /// All counters at zero.
    public init() {}
}

/// The connections lookups run on at once, on their callers' threads (see "Lookups" in
/// ``SQLiteDatabase``'s documentation).
final class LookupConnections: Sendable {
    /// One connection, used by one thread at a time: whoever took it from the set until it is given
    /// back. The lock the set is kept under orders one use before the next, which is all SQLite's
    /// multi-thread mode asks of a connection shared between threads.
    final class Connection: @unchecked Sendable {
        let connection: SQLiteConnection

        init(_ connection: SQLiteConnection) {
            self.connection = connection
        }
    }

    private struct State: Sendable {
        var idle: [Connection]
        var closed = false
        var statistics = SQLiteLookupStatistics()
    }

    private let state: Locked<State>

    init(_ connections: [Connection]) {
        state = Locked(State(idle: connections))
    }

    /// A connection no one is using, or `nil` when all are in use or the database is closed.
    func take() -> Connection? {
        state.withLock { state in
            guard !state.closed, let connection = state.idle.popLast() else { return nil }
            state.statistics.ranOnCaller += 1
            return connection
        }
    }

    /// Puts `taken` back for the next lookup, any transaction its lookup left open rolled back; after
    /// ``close()`` it is closed instead.
    func giveBack(_ taken: Connection) {
        taken.connection.rollbackIfInTransaction()
        state.withLock { state in
            if !state.closed { state.idle.append(taken) }
        }
    }

    /// Counts a lookup handed to the readers (a lookup that met a lock is counted in both).
    func countHandedOn() {
        state.withLock { $0.statistics.handedToReaders += 1 }
    }

    var statistics: SQLiteLookupStatistics {
        state.withLock { $0.statistics }
    }

    /// Closes the idle connections, and each one in use when it is given back; no lookup runs on the
    /// caller's thread afterwards.
    func close() {
        var idle = state.withLock { state in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        // Closed here, outside the lock: the last connection to close a file also checkpoints it.
        idle.removeAll()
    }
}
