import CSQLite
import StoreSQL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One open connection to an SQLite database file.
///
/// The connection owns its `sqlite3*` handle and every statement prepared on it, and closes them when
/// it is released (`sqlite3_close_v2`). It is opened in SQLite's multi-thread mode: it must be used by
/// one thread at a time, and ``SQLiteDatabase`` keeps each of its connections on one dedicated thread
/// for its whole life. Every failure is reported as a `DatabaseError` whose code is SQLite's extended
/// result code and whose message is SQLite's, never the SQL text or a bound value.
///
/// At open the connection applies its ``Options`` and reads each setting back, so a database that does
/// not report what was asked (say, a journal that cannot be switched to WAL) fails to open instead of
/// running with weaker guarantees. Afterwards no statement may change those settings (`journal_mode`,
/// `synchronous`, `foreign_keys`, `query_only`): such a `PRAGMA` is refused when prepared, with a
/// `.misuse` error.
public final class SQLiteConnection: SQLConnection {
    /// What a connection is for, which decides how it is configured.
    public enum Role: Sendable, Hashable {
        /// Switches the database to WAL (`journal_mode=WAL`) and may write.
        case writer
        /// Expects the database to be in WAL mode already, and cannot write (`query_only=ON`).
        case reader
    }

    /// How a connection is opened.
    public struct Options: Sendable, Hashable {
        /// Writer (switches to WAL, may write) or reader (`query_only`).
        public var role: Role
        /// The `PRAGMA synchronous` level; FULL unless a benchmark asks for NORMAL.
        public var synchronous: SQLiteSynchronousMode
        /// How long a statement waits for a lock held by another connection before failing as busy.
        public var busyTimeout: Duration
        /// How many prepared statements are kept for reuse, keyed by SQL text.
        public var statementCacheCapacity: Int

        /// Options; by default a writer with `synchronous=FULL`, a 5 s busy timeout and 64 cached
        /// statements.
        public init(
            role: Role = .writer, synchronous: SQLiteSynchronousMode = .full, busyTimeout: Duration = .seconds(5),
            statementCacheCapacity: Int = 64
        ) {
            self.role = role
            self.synchronous = synchronous
            self.busyTimeout = busyTimeout
            self.statementCacheCapacity = statementCacheCapacity
        }
    }

    /// The name of the savepoint ``SQLiteDatabase`` wraps each write job in; job code may not touch it.
    static let jobSavepointName = "storesql_job"

    /// Always ``StoreSQL/SQLDialect/sqlite``.
    public var dialect: SQLDialect { .sqlite }

    /// The options this connection was opened with.
    public let options: Options

    let handle: OpaquePointer
    /// Where the WAL hook writes the log's length (see ``disableAutomaticCheckpoints()``).
    private let logFrameCount: UnsafeMutablePointer<Int32>
    private var statements: StatementCache
    /// The driver's own statements (transaction control, pragmas), kept apart from callers' statements.
    private var controlStatements: [String: SQLiteStatement] = [:]
    /// `BEGIN` and `ROLLBACK` for ``inReadTransaction(_:)``, found once: run around every read, they
    /// are not looked up by their text each time.
    private var readTransaction: (begin: SQLiteStatement, end: SQLiteStatement)?

    /// While true, statements that would end or replace the driver's transaction are refused when
    /// prepared (an authorizer returns `SQLITE_DENY`): `BEGIN`, `COMMIT`, `ROLLBACK`, and savepoint
    /// operations on the driver's own savepoint.
    var refusesTransactionControl = false

    /// Set once the connection is configured: from then on statements may not change the settings it
    /// guarantees (`journal_mode`, `synchronous`, `foreign_keys`, `query_only`); reading them is fine.
    private var settingsAreLocked = false

    /// Opens (creating if needed) the database file at `path` and configures it for `options.role`.
    ///
    /// The parent directory must exist. Throws a `DatabaseError` (kind `.connectionFailed` for a path
    /// that cannot be opened, `.corrupt` for a file that is not a database, `.connectionFailed` with code
    /// `configuration` when a setting does not read back as asked); the handle is closed on every failure.
    public init(path: String, options: Options = Options()) throws(DatabaseError) {
        guard options.statementCacheCapacity >= 0 else {
            throw .driverMisuse("the statement cache capacity must not be negative")
        }
        self.options = options
        // Only a writer whose commits are each synced may gather its WAL writes (see the shim).
        self.handle = try Self.openHandle(
            path: path, gatheringWALWrites: options.role == .writer && options.synchronous == .full)
        self.logFrameCount = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        self.logFrameCount.initialize(to: 0)
        self.statements = StatementCache(capacity: options.statementCacheCapacity)
        // From here on deinit closes the handle if configuration throws.
        installAuthorizer()
        try configure(path: path)
        settingsAreLocked = true
    }

    deinit {
        statements.removeAll()
        controlStatements.removeAll()
        readTransaction = nil
        sqlite3_set_authorizer(handle, nil, nil)
        sqlite3_wal_hook(handle, nil, nil)
        sqlite3_close_v2(handle)
        logFrameCount.deallocate()
    }

    // MARK: - SQLConnection

    /// Runs one statement and returns the number of rows it inserted, updated or deleted (0 for any
    /// other statement).
    @discardableResult
    public func execute(_ query: SQLQuery) throws(DatabaseError) -> Int {
        let statement = try cachedStatement(for: query)
        defer { statement.reset() }
        try statement.bind(query.bindings, database: handle)
        let totalBefore = sqlite3_total_changes64(handle)
        try statement.run(database: handle)
        // sqlite3_changes64 keeps the count of the last INSERT/UPDATE/DELETE, even after a statement
        // that changes nothing; the running total tells whether this one changed anything.
        guard sqlite3_total_changes64(handle) != totalBefore else { return 0 }
        return Int(sqlite3_changes64(handle))
    }

    /// Runs one statement and returns all its rows.
    ///
    /// Columns are read by storage class: INTEGER, TEXT, BLOB and NULL map to ``StoreSQL/SQLValue``; a
    /// REAL value throws a `.decoding` error.
    public func query(_ query: SQLQuery) throws(DatabaseError) -> [SQLRow] {
        let statement = try cachedStatement(for: query)
        defer { statement.reset() }
        try statement.bind(query.bindings, database: handle)
        return try statement.rows(database: handle)
    }

    /// Runs several `;`-separated statements with no binds (`sqlite3_exec`), stopping at the first error.
    public func executeScript(_ sql: String) throws(DatabaseError) {
        guard !sql.utf8.contains(0) else { throw .driverMisuse("SQL text must not contain a NUL character") }
        var errorMessage: UnsafeMutablePointer<CChar>?
        let resultCode = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        defer { sqlite3_free(errorMessage) }
        guard resultCode == SQLITE_OK else {
            if let errorMessage {
                throw .sqlite(sqlite3_extended_errcode(handle), message: String(cString: errorMessage))
            }
            throw .sqlite(sqlite3_extended_errcode(handle), handle: handle)
        }
    }

    // MARK: - State

    /// The settings the database reports for this connection, each read back with a `PRAGMA`.
    public func settings() throws(DatabaseError) -> SQLiteSettings {
        let synchronousLevel = try pragmaInteger("synchronous")
        return SQLiteSettings(
            journalMode: try pragmaText("journal_mode").lowercased(),
            synchronous: SQLiteSynchronousMode(level: synchronousLevel),
            foreignKeys: try pragmaInteger("foreign_keys") == 1,
            busyTimeoutMilliseconds: try pragmaInteger("busy_timeout"),
            queryOnly: try pragmaInteger("query_only") == 1)
    }

    /// The writes SQLite asked for on this connection's WAL file and the writes made to the file,
    /// when they are gathered (a writer with `synchronous=FULL`, once its WAL file is open); `nil`
    /// otherwise.
    public func walWrites() -> SQLiteWALWrites? {
        var asked: Int64 = 0
        var made: Int64 = 0
        guard csqlite_gathered_wal_writes(handle, &asked, &made) == 1 else { return nil }
        return SQLiteWALWrites(asked: asked, made: made)
    }

    /// Whether a transaction is open (`sqlite3_get_autocommit` is off). SQLite may end a transaction
    /// on its own after some errors (for example `SQLITE_FULL`, `SQLITE_IOERR`, `SQLITE_BUSY`, or an
    /// `OR ROLLBACK` conflict); this is how to tell.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Whether some foreign key constraint is violated and not yet resolved, deferred ones included
    /// (`SQLITE_DBSTATUS_DEFERRED_FKS`): a `COMMIT` now would fail.
    var hasUnresolvedForeignKeyViolations: Bool {
        var current: Int32 = 0
        var highwater: Int32 = 0
        let resultCode = sqlite3_db_status(handle, SQLITE_DBSTATUS_DEFERRED_FKS, &current, &highwater, 0)
        return resultCode == SQLITE_OK && current > 0
    }

    /// How many prepared statements are cached for reuse.
    public var cachedStatementCount: Int { statements.count }

    // MARK: - Driver statements

    /// Runs one of the driver's own statements (transaction control, pragmas): prepared once, with the
    /// transaction-control restriction lifted, and kept apart from callers' statements, so a caller's
    /// `COMMIT` never finds the driver's already-prepared one in the cache.
    func runControl(_ sql: String) throws(DatabaseError) {
        let statement = try controlStatement(for: sql)
        defer { statement.reset() }
        try statement.run(database: handle)
    }

    /// Turns off SQLite's automatic checkpoints on this connection, so a checkpoint never runs inside
    /// one of its commits (see ``checkpoint()``), and keeps the log's length after each of its
    /// commits in ``logFrames`` instead.
    func disableAutomaticCheckpoints() {
        // The WAL hook is what runs SQLite's automatic checkpoints; replacing it turns them off.
        // SQLite calls it on this thread, inside the commit, once the write lock is released.
        sqlite3_wal_hook(
            handle,
            { context, _, _, frames in
                context?.assumingMemoryBound(to: Int32.self).pointee = frames
                return SQLITE_OK
            }, logFrameCount)
    }

    /// The frames (pages) in the write-ahead log after this connection's last commit, including
    /// frames already copied into the database file; 0 after ``restartLog(waitingAtMost:)`` until the
    /// next commit. Kept only after ``disableAutomaticCheckpoints()``.
    var logFrames: Int { Int(logFrameCount.pointee) }

    /// Has SQLite cut the write-ahead log file back to `frames` frames' worth of bytes whenever the
    /// log starts over (`PRAGMA journal_size_limit`), so a file one large transaction stretched does
    /// not keep its size for good.
    func limitLogFile(toFrames frames: Int) throws(DatabaseError) {
        // A frame is a page and its 24-byte header; the file begins with a 32-byte header.
        let bytes = Int64(frames) * (try pragmaInteger("page_size") + 24) + 32
        try expect(
            "journal_size_limit", reported: String(try pragmaInteger("journal_size_limit=\(bytes)")),
            asked: String(bytes))
    }

    /// Copies what it can of the write-ahead log into the database file without waiting for, or
    /// blocking, readers and the writer (`SQLITE_CHECKPOINT_PASSIVE`).
    func checkpoint() {
        _ = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    /// Copies the whole write-ahead log into the database file and has the next commit write the
    /// log from its start (`SQLITE_CHECKPOINT_RESTART`). Returns whether it did.
    ///
    /// A passive checkpoint stops at the oldest snapshot a reader still holds, and SQLite starts the
    /// log over only once all of it is copied and no reader uses it: readers that never pause keep
    /// it growing. This waits, up to `wait`, for the write lock and for every reader to reach the
    /// newest snapshot; readers that begin meanwhile read the database file and do not hold it up.
    /// It fails at once, without waiting, while another connection is checkpointing (the database
    /// keeps its own checkpointer and writer from meeting so).
    func restartLog(waitingAtMost wait: Duration) -> Bool {
        // SQLite's own busy timeout sleeps 1, 2, 5, 10, 15… ms between tries, far longer than a
        // reader needs to move on, and writes wait the whole while: this one looks every 100 µs.
        let deadline = UnsafeMutablePointer<ContinuousClock.Instant>.allocate(capacity: 1)
        deadline.initialize(to: .now + wait)
        sqlite3_busy_handler(
            handle,
            { context, _ in
                guard let deadline = context?.assumingMemoryBound(to: ContinuousClock.Instant.self).pointee,
                    ContinuousClock.now < deadline
                else { return 0 }
                usleep(100)
                return 1
            }, deadline)
        defer {
            sqlite3_busy_timeout(handle, options.busyTimeout.clampedMilliseconds)
            deadline.deinitialize(count: 1)
            deadline.deallocate()
        }
        guard sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_RESTART, nil, nil) == SQLITE_OK else {
            return false
        }
        logFrameCount.pointee = 0
        return true
    }

    /// Runs `body` in a read transaction: every statement it runs sees the database as it was at
    /// the first one (one snapshot), never a write committed in between. `body` may not begin or
    /// end a transaction of its own (refused when prepared, as in a write). The transaction is
    /// ended after `body`, whatever it did.
    func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
        let transaction: (begin: SQLiteStatement, end: SQLiteStatement)
        if let known = readTransaction {
            transaction = known
        } else {
            transaction = (try controlStatement(for: "BEGIN"), try controlStatement(for: "ROLLBACK"))
            readTransaction = transaction
        }
        // A transaction still open here (a ROLLBACK below that failed) would fail every BEGIN.
        rollbackIfInTransaction()
        do {
            defer { transaction.begin.reset() }
            try transaction.begin.run(database: handle)
        }
        refusesTransactionControl = true
        defer {
            refusesTransactionControl = false
            if isInTransaction {
                // A read's ROLLBACK ends its snapshot; should it fail, the next BEGIN reports it.
                try? transaction.end.run(database: handle)
                transaction.end.reset()
            }
        }
        return try body()
    }

    /// Rolls back the open transaction, if any; used to restore a clean state after a failure.
    func rollbackIfInTransaction() {
        guard isInTransaction else { return }
        do {
            try runControl("ROLLBACK")
        } catch {
            // Nothing better can be done: a failed ROLLBACK leaves SQLite to roll back when the
            // connection closes; the next BEGIN then fails and reports it.
        }
    }

    // MARK: - Private

    /// Whether SQLite's memory statistics were turned off, done once before the process's first
    /// connection (see `csqlite_disable_memory_statistics`). Swift runs a static's initializer once,
    /// whatever the threads, and SQLite is not used before a connection opens.
    static let memoryStatisticsAreOff: Bool = csqlite_disable_memory_statistics() == SQLITE_OK

    /// Whether the VFS that gathers a WAL file's writes into one (`csqlite_register_gathered_wal_vfs`)
    /// is registered, done once, after `memoryStatisticsAreOff` (which must precede SQLite's
    /// initialization).
    static let gatheredWALIsRegistered: Bool = csqlite_register_gathered_wal_vfs() == SQLITE_OK

    private static func openHandle(path: String, gatheringWALWrites: Bool) throws(DatabaseError) -> OpaquePointer {
        _ = memoryStatisticsAreOff
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        // Without the VFS (it could not be registered) the writes are made one by one, as SQLite
        // asks: slower, never less safe.
        let vfs = gatheringWALWrites && gatheredWALIsRegistered ? CSQLITE_GATHERED_WAL_VFS : nil
        let resultCode = sqlite3_open_v2(path, &opened, flags, vfs)
        guard let opened else {
            throw .sqlite(resultCode == SQLITE_OK ? SQLITE_NOMEM : resultCode, message: "cannot allocate a connection")
        }
        guard resultCode == SQLITE_OK else {
            let code = sqlite3_extended_errcode(opened)
            let message = sqlite3_errmsg(opened).map { String(cString: $0) } ?? "cannot open the database"
            sqlite3_close_v2(opened)
            throw .sqlite(code, message: "\(message) (path: \(path))")
        }
        sqlite3_extended_result_codes(opened, 1)
        return opened
    }

    /// Applies the options and reads each setting back.
    private func configure(path: String) throws(DatabaseError) {
        let timeout = options.busyTimeout.clampedMilliseconds
        let resultCode = sqlite3_busy_timeout(handle, timeout)
        guard resultCode == SQLITE_OK else { throw .sqlite(resultCode, handle: handle) }

        switch options.role {
        case .writer:
            // SQLite silently opens a file it may not write read-only; every write would then fail.
            guard sqlite3_db_readonly(handle, "main") != 1 else {
                throw DatabaseError(
                    kind: .connectionFailed, code: SQLiteResultCode.describe(SQLITE_READONLY),
                    message: "the database file cannot be written (path: \(path))")
            }
            let reported = try pragmaText("journal_mode=WAL").lowercased()
            try expect("journal_mode", reported: reported, asked: "wal")
        case .reader:
            try expect("journal_mode", reported: try pragmaText("journal_mode").lowercased(), asked: "wal")
        }
        try runControl("PRAGMA synchronous=\(options.synchronous.rawValue)")
        try runControl("PRAGMA foreign_keys=ON")
        // Savepoint and statement journals (and temporary b-trees) in memory: they only serve to
        // roll back, never to recover, and the writer's group commit gives every write a savepoint
        // of its own, whose journal SQLite otherwise spills to a temporary file past 64 KiB.
        try runControl("PRAGMA temp_store=MEMORY")
        try runControl("PRAGMA query_only=\(options.role == .reader ? "ON" : "OFF")")

        let settings = try settings()
        try expect("journal_mode", reported: settings.journalMode, asked: "wal")
        try expect(
            "synchronous", reported: settings.synchronous?.rawValue ?? "another level",
            asked: options.synchronous.rawValue)
        try expect("foreign_keys", reported: settings.foreignKeys ? "ON" : "OFF", asked: "ON")
        try expect("busy_timeout", reported: "\(settings.busyTimeoutMilliseconds)", asked: "\(timeout)")
        try expect(
            "query_only", reported: settings.queryOnly ? "ON" : "OFF", asked: options.role == .reader ? "ON" : "OFF")
    }

    private func expect(_ setting: String, reported: String, asked: String) throws(DatabaseError) {
        guard reported == asked else {
            throw DatabaseError(
                kind: .connectionFailed, code: "configuration",
                message: "the database reports \(setting)=\(reported) after \(asked) was asked")
        }
    }

    private func pragmaText(_ pragma: String) throws(DatabaseError) -> String {
        guard case .text(let text) = try pragmaValue(pragma) else {
            throw .decoding(column: pragma, expected: "text")
        }
        return text
    }

    private func pragmaInteger(_ pragma: String) throws(DatabaseError) -> Int64 {
        guard case .integer(let integer) = try pragmaValue(pragma) else {
            throw .decoding(column: pragma, expected: "an integer")
        }
        return integer
    }

    private func pragmaValue(_ pragma: String) throws(DatabaseError) -> SQLValue {
        let statement = try controlStatement(for: "PRAGMA \(pragma)")
        defer { statement.reset() }
        guard let value = try statement.rows(database: handle).first?.values.first else {
            throw .decoding(column: pragma, expected: "a value")
        }
        return value
    }

    /// The statement for `query`: one prepared for a query of its shape before, or prepared now from
    /// its text (written out only then).
    private func cachedStatement(for query: SQLQuery) throws(DatabaseError) -> SQLiteStatement {
        let shape = query.shape
        if let statement = statements.statement(for: shape) { return statement }
        let statement = try prepare(query.rendered(for: .sqlite).sql, persistent: statements.capacity > 0)
        statements.insert(statement, for: shape)
        return statement
    }

    private func controlStatement(for sql: String) throws(DatabaseError) -> SQLiteStatement {
        if let statement = controlStatements[sql] { return statement }
        let restricted = refusesTransactionControl
        refusesTransactionControl = false
        defer { refusesTransactionControl = restricted }
        let statement = try prepare(sql, persistent: true)
        controlStatements[sql] = statement
        return statement
    }

    /// Prepares exactly one statement; text with a second statement after the first is refused.
    private func prepare(_ sql: String, persistent: Bool) throws(DatabaseError) -> SQLiteStatement {
        guard !sql.utf8.contains(0) else { throw .driverMisuse("SQL text must not contain a NUL character") }
        let flags = UInt32(persistent ? SQLITE_PREPARE_PERSISTENT : 0)
        // The byte count includes the terminating NUL, which lets SQLite skip copying the text.
        let length = Int32(clamping: sql.utf8.count + 1)
        let result: Result<SQLiteStatement, DatabaseError> = sql.withCString { text in
            var prepared: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let resultCode = sqlite3_prepare_v3(handle, text, length, flags, &prepared, &tail)
            guard resultCode == SQLITE_OK else { return .failure(.sqlite(resultCode, handle: handle)) }
            guard let prepared else { return .failure(.driverMisuse("the SQL text holds no statement")) }
            let statement = SQLiteStatement(handle: prepared)
            if let tail, tail.pointee != 0 {
                // Only whitespace and comments may follow: preparing them yields no statement.
                var extra: OpaquePointer?
                let tailCode = sqlite3_prepare_v3(handle, tail, -1, 0, &extra, nil)
                if let extra {
                    sqlite3_finalize(extra)
                    return .failure(.driverMisuse("execute and query run one statement; use executeScript for several"))
                }
                guard tailCode == SQLITE_OK else {
                    return .failure(.driverMisuse("execute and query run one statement; use executeScript for several"))
                }
            }
            return .success(statement)
        }
        return try result.get()
    }

    /// Installs the authorizer that keeps the configured settings (once ``settingsAreLocked``) and
    /// enforces ``refusesTransactionControl``.
    private func installAuthorizer() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_set_authorizer(
            handle,
            { context, action, first, second, _, _ in
                guard let context else { return SQLITE_OK }
                let connection = Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue()
                return connection.authorize(action: action, first: first, second: second)
            }, context)
    }

    /// Settings a statement may not change after the connection has been configured.
    private static let lockedPragmas: Set<String> = ["journal_mode", "synchronous", "foreign_keys", "query_only"]

    private func authorize(action: Int32, first: UnsafePointer<CChar>?, second: UnsafePointer<CChar>?) -> Int32 {
        switch action {
        case SQLITE_PRAGMA:
            // For a pragma, `first` is its name and `second` the value being set (NULL when reading).
            guard settingsAreLocked, second != nil, let first else { return SQLITE_OK }
            return Self.lockedPragmas.contains(String(cString: first).lowercased()) ? SQLITE_DENY : SQLITE_OK
        case SQLITE_TRANSACTION:
            return refusesTransactionControl ? SQLITE_DENY : SQLITE_OK
        case SQLITE_SAVEPOINT:
            // `first` is the operation, `second` the savepoint's name.
            guard refusesTransactionControl else { return SQLITE_OK }
            guard let second else { return SQLITE_DENY }
            return String(cString: second).lowercased() == Self.jobSavepointName ? SQLITE_DENY : SQLITE_OK
        default:
            return SQLITE_OK
        }
    }
}
