/// How hard SQLite works to make a commit survive a power loss (`PRAGMA synchronous`).
public enum SQLiteSynchronousMode: String, Sendable, Hashable, CaseIterable {
    /// Every commit is flushed to stable storage before it returns (`FULL`, level 2): the default, and
    /// what a durable checkout needs.
    case full = "FULL"
    /// In WAL mode a commit may be lost on power failure (never corrupts the file); for benchmarks
    /// only (`NORMAL`, level 1).
    case normal = "NORMAL"

    /// The number `PRAGMA synchronous` reports for this mode.
    var level: Int64 {
        switch self {
        case .full: 2
        case .normal: 1
        }
    }

    init?(level: Int64) {
        guard let mode = Self.allCases.first(where: { $0.level == level }) else { return nil }
        self = mode
    }
}

/// The settings a connection reports when asked (each value read back with a `PRAGMA`, not the one
/// that was requested).
public struct SQLiteSettings: Sendable, Hashable {
    /// `PRAGMA journal_mode`, lowercased: `"wal"` for every connection this driver opens.
    public var journalMode: String
    /// `PRAGMA synchronous`, or `nil` when the level is neither FULL nor NORMAL.
    public var synchronous: SQLiteSynchronousMode?
    /// `PRAGMA foreign_keys`.
    public var foreignKeys: Bool
    /// `PRAGMA busy_timeout`, in milliseconds.
    public var busyTimeoutMilliseconds: Int64
    /// `PRAGMA query_only`: true on reader connections.
    public var queryOnly: Bool

    /// Settings as reported; connections build these with ``SQLiteConnection/settings()``, tests to
    /// compare against.
    public init(
        journalMode: String, synchronous: SQLiteSynchronousMode?, foreignKeys: Bool, busyTimeoutMilliseconds: Int64,
        queryOnly: Bool
    ) {
        self.journalMode = journalMode
        self.synchronous = synchronous
        self.foreignKeys = foreignKeys
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.queryOnly = queryOnly
    }
}

extension Duration {
    /// Whole milliseconds, clamped to what SQLite's `int` timeouts accept.
    var clampedMilliseconds: Int32 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return Int32.max }
        let total = milliseconds.partialValue + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: total)
    }
}

/// A writer connection's WAL writes: those SQLite asked for (two a page: the frame's header, then
/// the page) and those made to the file, gathered until SQLite syncs or reads the file.
public struct SQLiteWALWrites: Sendable, Hashable {
    public var asked: Int64
    public var made: Int64

    public init(asked: Int64, made: Int64) {
        self.asked = asked
        self.made = made
    }
}
