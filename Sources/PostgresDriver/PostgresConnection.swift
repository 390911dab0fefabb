import CLibPQ
import StoreSQL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to a PostgreSQL server, through libpq.
///
/// - Ownership: the connection owns its libpq handle and closes it (`PQfinish`) when released,
///   including a handle whose connection attempt failed.
/// - Threads: every method blocks the calling thread on network I/O. Use a connection from one
///   thread at a time, and not from the Swift concurrency pool; ``PostgresDatabase`` runs its
///   connections on threads of its own. The type is deliberately not `Sendable`.
/// - Errors: every failure is a ``DatabaseError`` whose `code` is the server's SQLSTATE (or
///   `08001`/`08006` for connection failures libpq reports itself) and whose `message` is the
///   server's primary message only: never a `DETAIL` line (which can quote row values), a bound
///   value (quoted input is cut out of data exceptions, class `22`) or the password. A primary
///   message may name a table, a constraint or a token of the SQL text.
/// - Statements: queries are sent with their binds as parameters (`PQexecParams`), never spliced into
///   the SQL. Integers and text travel in text format, blobs in binary format as `bytea`. When the
///   statement cache is enabled, each distinct SQL text is prepared once per connection
///   (`PQprepare`) and then only executed (`PQexecPrepared`).
/// - Server notices (`NOTICE`, `WARNING`) are discarded rather than printed.
public final class PostgresConnection: SQLConnection {
    /// Always ``SQLDialect/postgres``: binds are spelled `$1`, `$2`, …
    public let dialect: SQLDialect = .postgres

    var handle: OpaquePointer
    private let url: PostgresURL
    var statements: PreparedStatementCache
    /// SQL run after every (re)connect, before the connection is used: the pool's session defaults.
    private let sessionSetup: String?
    private var sessionIsSetUp = false

    /// The last error the server raised on this connection since ``resetLastError()``, kept so that
    /// a transaction whose body swallowed an error can still report why it failed.
    private(set) var lastError: DatabaseError?
    /// Set when a cached prepared statement turned out to be stale (its table changed shape) inside
    /// a transaction; running the transaction again will succeed.
    var statementWentStale = false

    /// The `BEGIN` of a write transaction, held until the transaction's first round trip.
    var pendingBegin: String?
    /// Statements whose results nobody reads, held for the next round trip (``executeDeferred(_:)``).
    var queued: [QueuedStatement] = []
    /// Whether the server has acknowledged the `BEGIN` of the transaction now open.
    var beginAcknowledged = false
    /// Round trips made since ``takeRoundTrips()``: one per statement sent alone, one per pipeline.
    var roundTrips = 0

    /// Opens a connection.
    ///
    /// - Parameters:
    ///   - url: `postgres://user[:password]@host[:port]/dbname[?param=value&…]` (or `postgresql://`),
    ///     with any libpq connection parameter in the query, e.g. `connect_timeout=5` (default 10
    ///     seconds) or `sslmode=require`. The client encoding is always UTF-8.
    ///   - statementCacheCapacity: how many distinct SQL texts are kept prepared on the server; 0
    ///     sends every statement unprepared (needed behind a pooler in transaction mode).
    /// - Throws: ``DatabaseError/Kind/connectionFailed`` with libpq's reason when the URL is not a
    ///   PostgreSQL URL, the server cannot be reached in time or refuses the connection. The message
    ///   never contains the password.
    public convenience init(url: String, statementCacheCapacity: Int = 128) throws(DatabaseError) {
        try self.init(url: url, statementCacheCapacity: statementCacheCapacity, sessionSetup: nil)
    }

    init(url: String, statementCacheCapacity: Int, sessionSetup: String?) throws(DatabaseError) {
        guard let parsed = PostgresURL(url) else {
            throw DatabaseError(
                kind: .connectionFailed, code: PostgresErrorMapping.connectCode,
                message: "the database URL must start with postgres:// or postgresql://")
        }
        self.url = parsed
        self.sessionSetup = sessionSetup
        self.statements = PreparedStatementCache(capacity: statementCacheCapacity)
        self.handle = try Self.open(parsed)
        try setUpSession()
    }

    deinit {
        PQfinish(handle)
    }

    // MARK: - SQLConnection

    /// Runs a statement and returns the number of rows it inserted, updated, deleted or returned.
    ///
    /// - Throws: ``DatabaseError`` mapped from the server's SQLSTATE (see the type's documentation).
    @discardableResult
    public func execute(_ query: SQLQuery) throws(DatabaseError) -> Int {
        try run(query).affectedRows
    }

    /// Runs a statement and returns all of its rows.
    ///
    /// Columns of type `int2`/`int4`/`int8` decode as ``SQLValue/integer(_:)``, `bool` as 0 or 1,
    /// `bytea` as ``SQLValue/blob(_:)``, SQL `NULL` as ``SQLValue/null``, every other type
    /// (`numeric`, `timestamptz`, …) as its text form.
    /// - Throws: ``DatabaseError`` mapped from the server's SQLSTATE, or ``DatabaseError/Kind/decoding``.
    public func query(_ query: SQLQuery) throws(DatabaseError) -> [SQLRow] {
        try run(query).rows()
    }

    /// Runs `;`-separated statements with no binds in one round trip (`PQexec`), e.g. migrations.
    ///
    /// Outside an explicit transaction the server runs the whole script as one implicit
    /// transaction: either every statement takes effect or none does.
    /// - Throws: ``DatabaseError`` for the first statement that fails.
    public func executeScript(_ sql: String) throws(DatabaseError) {
        try flushQueued()
        roundTrips += 1
        _ = try check(PQexec(handle, sql))
    }

    /// Runs `queries` in one round trip (one pipeline, with whatever was held back) and returns each
    /// one's rows, in order. The server runs them one after another; outside a transaction they
    /// share one implicit transaction, so a failure undoes the others (and, at the `REPEATABLE READ`
    /// a reading session runs at, they see one snapshot).
    ///
    /// - Throws: the first statement's error; the later ones did not run.
    public func queryEach(_ queries: [SQLQuery]) throws(DatabaseError) -> [[SQLRow]] {
        guard queries.count > 1 else { return try queries.map { query throws(DatabaseError) in try self.query(query) } }
        var statements: [QueuedStatement] = []
        statements.reserveCapacity(queries.count)
        for query in queries {
            let (sql, bindings) = query.rendered(for: .postgres)
            statements.append(QueuedStatement(sql: sql, parameters: try PostgresParameters(bindings)))
        }
        let outsideTransaction = pendingBegin == nil && queued.isEmpty && transactionStatus == PQTRANS_IDLE
        let results: [PostgresResult]
        do {
            results = try flush(then: statements, prepared: true)
        } catch  where outsideTransaction && statementWentStale && isConnected {
            // A cached statement no longer fits its tables (another server changed them). Outside a
            // transaction nothing else was affected: the cache forgot it, so run them once more,
            // prepared afresh — as a single statement would be.
            statementWentStale = false
            deallocateStaleStatements()
            results = try flush(then: statements, prepared: true)
        }
        guard results.count == queries.count else { throw clientError() }
        return try results.map { result throws(DatabaseError) in try result.rows() }
    }

    /// Holds `query` back, inside a transaction, to be sent with the next statement whose result is
    /// read or with the commit, in one round trip (see ``SQLConnection/executeDeferred(_:)``);
    /// outside a transaction it runs at once. At most ``maximumQueuedStatements`` wait: the next
    /// one sends them, so what is in flight stays far below the socket's buffers.
    public func executeDeferred(_ query: SQLQuery) throws(DatabaseError) {
        guard pendingBegin != nil || transactionStatus == PQTRANS_INTRANS else {
            try execute(query)
            return
        }
        let (sql, bindings) = query.rendered(for: .postgres)
        queued.append(QueuedStatement(sql: sql, parameters: try PostgresParameters(bindings)))
        if queued.count >= Self.maximumQueuedStatements { try flushQueued() }
    }

    /// How many deferred statements may wait for the next round trip.
    static let maximumQueuedStatements = 32

    // MARK: - Connection state

    /// Whether the connection is usable as far as libpq knows (a break is noticed on the next I/O).
    public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Closes the current server connection, whatever its state, and opens a new one with the same URL.
    ///
    /// Anything uncommitted on the old connection is lost (the server rolls it back) and the
    /// prepared statement cache starts empty.
    /// - Throws: ``DatabaseError/Kind/connectionFailed`` when the server cannot be reached; the old
    ///   connection is then kept as it was, and a later call may try again.
    public func reconnect() throws(DatabaseError) {
        let fresh = try Self.open(url)
        PQfinish(handle)
        handle = fresh
        statements.removeAll()
        pendingBegin = nil
        queued.removeAll()
        beginAcknowledged = false
        sessionIsSetUp = false
        statementWentStale = false
        try setUpSession()
    }

    /// The server's view of the transaction on this connection.
    var transactionStatus: PGTransactionStatusType { PQtransactionStatus(handle) }

    /// Makes the connection ready for a new job: replaces a connection that is broken or that the
    /// server is closing (noticed without a round trip), and rolls back a transaction a previous
    /// job left open.
    func prepareForJob() throws(DatabaseError) {
        pendingBegin = nil
        queued.removeAll()
        if !isConnected || Self.serverSpokeWhileIdle(handle) || PQpipelineStatus(handle) != PQ_PIPELINE_OFF {
            try reconnect()
        } else if transactionStatus != PQTRANS_IDLE {
            rollbackQuietly()
            if !isConnected || transactionStatus != PQTRANS_IDLE { try reconnect() }
        }
        if !sessionIsSetUp { try setUpSession() }
        deallocateStaleStatements()
        resetLastError()
    }

    func resetLastError() {
        lastError = nil
        statementWentStale = false
    }

    /// Runs `ROLLBACK`, ignoring any error (used on paths that are already failing). Statements
    /// not sent yet are dropped; a transaction whose `BEGIN` was never sent needs no round trip.
    func rollbackQuietly() {
        queued.removeAll()
        if pendingBegin != nil {
            pendingBegin = nil
            if transactionStatus == PQTRANS_IDLE { return }
        }
        beginAcknowledged = false
        roundTrips += 1
        if let result = PQexec(handle, "ROLLBACK") { PQclear(result) }
    }

    /// Runs a statement with no binds and no result rows (transaction control); returns its command tag.
    @discardableResult
    func command(_ sql: String) throws(DatabaseError) -> String {
        roundTrips += 1
        return try check(PQexec(handle, sql)).commandStatus
    }

    /// Opens a transaction with `begin` (`BEGIN …`), sent with the transaction's first round trip.
    func beginLater(_ begin: String) {
        pendingBegin = begin
        beginAcknowledged = false
    }

    /// The round trips made since the last call.
    func takeRoundTrips() -> Int {
        defer { roundTrips = 0 }
        return roundTrips
    }

    /// Commits the open transaction, sending what is held back with the `COMMIT` in one round trip;
    /// returns the command tag (`COMMIT`, or `ROLLBACK` when the server rolled back).
    ///
    /// - Throws: the first error of a held-back statement or of the commit. The transaction is then
    ///   over: rolled back by the server, or here when a held-back statement failed before it.
    func commit() throws(DatabaseError) -> String {
        if pendingBegin != nil, queued.isEmpty {
            // Nothing was sent: there is nothing to commit.
            pendingBegin = nil
            return "COMMIT"
        }
        guard pendingBegin != nil || !queued.isEmpty else { return try command("COMMIT") }
        do {
            let results = try flush(then: [QueuedStatement(sql: "COMMIT", parameters: .none)], prepared: false)
            beginAcknowledged = false
            return results.first?.commandStatus ?? ""
        } catch {
            if isConnected, transactionStatus != PQTRANS_IDLE { rollbackQuietly() }
            throw error
        }
    }

    // MARK: - Running statements

    private func run(_ query: SQLQuery) throws(DatabaseError) -> PostgresResult {
        let (sql, bindings) = query.rendered(for: .postgres)
        let parameters = try PostgresParameters(bindings)
        if pendingBegin != nil || !queued.isEmpty {
            guard
                let result = try flush(then: [QueuedStatement(sql: sql, parameters: parameters)], prepared: true).first
            else { throw clientError() }
            return result
        }
        guard statements.isEnabled else { return try check(execUnprepared(sql, parameters)) }

        if let name = statements.name(for: sql, types: parameters.types) {
            let raw = execPrepared(name, parameters)
            guard let raw, Self.isStaleStatementError(raw) else { return try check(raw) }
            // The cached statement no longer fits its tables (or is gone): forget it. Outside a
            // transaction nothing else was affected, so prepare it afresh and run it once more;
            // inside one the transaction is now aborted and must be run again as a whole.
            statements.remove(sql: sql, types: parameters.types)
            guard transactionStatus == PQTRANS_IDLE else {
                let error = self.error(from: PostgresResult(taking: raw))
                statementWentStale = true
                throw error
            }
            PQclear(raw)
            deallocateStaleStatements()
        }
        guard let name = statements.newName() else { return try check(execUnprepared(sql, parameters)) }
        roundTrips += 1
        _ = try check(
            parameters.types.withUnsafeBufferPointer { types in
                PQprepare(handle, name, sql, Int32(parameters.count), types.baseAddress)
            })
        statements.insert(name: name, sql: sql, types: parameters.types)
        return try check(execPrepared(name, parameters))
    }

    /// Drops, on the server, statements forgotten because they went stale (only outside a
    /// transaction: inside a failed one the server would refuse).
    private func deallocateStaleStatements() {
        guard transactionStatus == PQTRANS_IDLE else { return }
        for name in statements.takeStaleNames() {
            roundTrips += 1
            if let result = PQexec(handle, "DEALLOCATE \(name)") { PQclear(result) }
        }
    }

    private func execUnprepared(_ sql: String, _ parameters: PostgresParameters) -> OpaquePointer? {
        roundTrips += 1
        return parameters.withUnsafeArrays { types, values, lengths, formats in
            PQexecParams(handle, sql, Int32(parameters.count), types, values, lengths, formats, 0)
        }
    }

    private func execPrepared(_ name: String, _ parameters: PostgresParameters) -> OpaquePointer? {
        roundTrips += 1
        return parameters.withUnsafeArrays { _, values, lengths, formats in
            PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 0)
        }
    }

    /// Whether `raw` failed because a prepared statement is gone (`26000`) or its cached plan no
    /// longer matches the tables (`0A000` "cached plan must not change result type").
    static func isStaleStatementError(_ raw: OpaquePointer) -> Bool {
        guard PQresultStatus(raw) == PGRES_FATAL_ERROR, let state = PQresultErrorField(raw, CLibPQDiagSQLState)
        else { return false }
        switch String(cString: state) {
        case "26000": return true
        case "0A000":
            guard let message = PQresultErrorField(raw, CLibPQDiagMessagePrimary) else { return false }
            return String(cString: message).hasPrefix("cached plan must not change result type")
        default: return false
        }
    }

    /// Wraps a raw result and throws unless it reports success.
    func check(_ raw: OpaquePointer?) throws(DatabaseError) -> PostgresResult {
        guard let raw else { throw clientError() }
        let result = PostgresResult(taking: raw)
        switch result.status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return result
        case PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_COPY_BOTH:
            abandonCopy(result.status)
            throw record(DatabaseError(kind: .misuse, code: "copy", message: "COPY is not supported by this driver"))
        default:
            throw error(from: result)
        }
    }

    /// The error a failed result stands for, recorded as the connection's last error.
    func error(from result: PostgresResult) -> DatabaseError {
        let state = result.errorField(CLibPQDiagSQLState)
        let broken = !isConnected
        let message: String
        if let state, let primary = result.errorField(CLibPQDiagMessagePrimary) {
            message = PostgresErrorMapping.reportedMessage(primary: primary, state: state)
        } else {
            // An error libpq raised itself (no SQLSTATE): its text has no values in it.
            let text = result.errorMessage.isEmpty ? connectionErrorMessage : result.errorMessage
            message = PostgresErrorMapping.firstLine(of: text)
        }
        let kind: DatabaseError.Kind
        let code: String
        if broken {
            kind = .connectionFailed
            code = state ?? PostgresErrorMapping.brokenConnectionCode
        } else if let state {
            kind = PostgresErrorMapping.kind(forSQLState: state)
            code = state
        } else {
            kind = .other
            code = PostgresErrorMapping.clientCode
        }
        return record(DatabaseError(kind: kind, code: code, message: url.redacting(message)))
    }

    /// The error for a call that produced no result at all (out of memory, or the query could not be sent).
    func clientError() -> DatabaseError {
        let message = PostgresErrorMapping.firstLine(of: connectionErrorMessage)
        let broken = !isConnected
        return record(
            DatabaseError(
                kind: broken ? .connectionFailed : .other,
                code: broken ? PostgresErrorMapping.brokenConnectionCode : PostgresErrorMapping.clientCode,
                message: url.redacting(message.isEmpty ? "no result from libpq" : message)))
    }

    private func record(_ error: DatabaseError) -> DatabaseError {
        lastError = error
        return error
    }

    private var connectionErrorMessage: String {
        guard let message = PQerrorMessage(handle) else { return "" }
        return String(cString: message)
    }

    /// Ends a `COPY` the caller started by mistake, leaving the connection ready for the next statement.
    private func abandonCopy(_ status: ExecStatusType) {
        if status == PGRES_COPY_IN {
            _ = PQputCopyEnd(handle, "COPY is not supported by this driver")
        } else {
            var buffer: UnsafeMutablePointer<CChar>?
            while PQgetCopyData(handle, &buffer, 0) > 0 {
                PQfreemem(buffer)
                buffer = nil
            }
        }
        while let result = PQgetResult(handle) { PQclear(result) }
    }

    private func setUpSession() throws(DatabaseError) {
        if let sessionSetup { try command(sessionSetup) }
        sessionIsSetUp = true
    }

    /// The value libpq uses for connection option `keyword` (`keepalives_idle`), if any.
    func option(_ keyword: String) -> String? {
        guard let options = PQconninfo(handle) else { return nil }
        defer { PQconninfoFree(options) }
        var index = 0
        while let name = options[index].keyword {
            if String(cString: name) == keyword { return options[index].val.map { String(cString: $0) } }
            index += 1
        }
        return nil
    }

    // MARK: - Opening

    /// Opens a libpq connection to `url`, or throws `.connectionFailed` after closing the handle.
    ///
    /// The connection is opened without blocking inside libpq (`PQconnectStartParams` and
    /// `PQconnectPoll`) so that notices are discarded from the very first message, and the attempt
    /// is bounded by the URL's `connect_timeout` (default 10 seconds).
    ///
    /// TCP keepalives are on by default (idle 5 s, then every 2 s, 3 probes) with a 10 s TCP user
    /// timeout, so a server or host that vanishes is noticed in seconds rather than in the kernel's
    /// two hours — and a PostgreSQL server notices a vanished store's connection the same way on
    /// its side. A URL may set any of them otherwise.
    private static func open(_ url: PostgresURL) throws(DatabaseError) -> OpaquePointer {
        // Keywords are applied in order: defaults the URL may override come before `dbname` (which
        // expands the URL), settings the driver depends on come after it.
        let keywords = [
            "connect_timeout", "fallback_application_name", "keepalives", "keepalives_idle", "keepalives_interval",
            "keepalives_count", "tcp_user_timeout", "dbname", "client_encoding",
        ]
        let values = ["10", "OnlineStore", "1", "5", "2", "3", "10000", url.string, "UTF8"]
        let started = withCStringArray(keywords) { keywords in
            withCStringArray(values) { values in
                keywords != nil && values != nil ? PQconnectStartParams(keywords, values, 1) : nil
            }
        }
        guard let connection = started else {
            throw DatabaseError(
                kind: .connectionFailed, code: PostgresErrorMapping.connectCode,
                message: "libpq could not allocate a connection")
        }
        PQsetNoticeProcessor(connection, discardNotice, nil)
        do throws(DatabaseError) {
            try completeConnection(connection, url: url)
            return connection
        } catch {
            PQfinish(connection)
            throw error
        }
    }

    private static func completeConnection(_ connection: OpaquePointer, url: PostgresURL) throws(DatabaseError) {
        func failure(_ reason: String) -> DatabaseError {
            var message = PostgresErrorMapping.firstLine(of: reason)
            if message.isEmpty { message = "could not connect to the server" }
            return DatabaseError(
                kind: .connectionFailed, code: PostgresErrorMapping.connectCode, message: url.redacting(message))
        }
        func libpqMessage() -> String { PQerrorMessage(connection).map { String(cString: $0) } ?? "" }

        guard PQstatus(connection) != CONNECTION_BAD else { throw failure(libpqMessage()) }
        let timeout = connectTimeoutSeconds(connection)
        let deadline: ContinuousClock.Instant? = timeout > 0 ? .now + .seconds(timeout) : nil
        // Right after PQconnectStart the caller waits as if PQconnectPoll had asked to write.
        var polling = PGRES_POLLING_WRITING
        while true {
            switch polling {
            case PGRES_POLLING_OK:
                return
            case PGRES_POLLING_READING, PGRES_POLLING_WRITING:
                let ready = waitForSocket(
                    PQsocket(connection), reading: polling == PGRES_POLLING_READING, deadline: deadline)
                switch ready {
                case .ready: break
                case .timedOut: throw failure("timed out after \(timeout) s connecting to the server")
                case .failed(let reason): throw failure(reason)
                }
            default:
                throw failure(libpqMessage())
            }
            polling = PQconnectPoll(connection)
        }
    }

    /// The connection's `connect_timeout` in seconds (0: wait as long as the network does).
    private static func connectTimeoutSeconds(_ connection: OpaquePointer) -> Int {
        guard let options = PQconninfo(connection) else { return 10 }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "connect_timeout" {
                guard let value = option.pointee.val else { return 0 }
                return max(0, Int(String(cString: value)) ?? 0)
            }
            option += 1
        }
        return 10
    }

    private enum SocketWait {
        case ready
        case timedOut
        case failed(String)
    }

    private static func waitForSocket(
        _ socket: Int32, reading: Bool, deadline: ContinuousClock.Instant?
    )
        -> SocketWait
    {
        guard socket >= 0 else { return .failed("the connection has no socket") }
        while true {
            var timeoutMilliseconds: Int32 = -1
            if let deadline {
                let remaining = deadline - .now
                if remaining <= .zero { return .timedOut }
                let (seconds, attoseconds) = remaining.components
                let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1
                timeoutMilliseconds = Int32(clamping: milliseconds)
            }
            var descriptor = pollfd(fd: socket, events: Int16(reading ? POLLIN : POLLOUT), revents: 0)
            let outcome = poll(&descriptor, 1, timeoutMilliseconds)
            if outcome > 0 { return .ready }
            if outcome == 0 { continue }  // loop to re-check the deadline
            if errno == EINTR { continue }
            return .failed("waiting for the server failed (errno \(errno))")
        }
    }

    /// Whether the server sent anything to this idle connection, checked without blocking.
    ///
    /// The server never speaks to an idle session unprompted except to say it is closing it (a
    /// terminated backend, `idle_session_timeout`, a shutdown) or to deliver `NOTIFY`, which the
    /// driver does not use. Its goodbye can arrive well before the socket is closed, when libpq
    /// would still report the connection as fine; any input therefore means: replace the connection.
    private static func serverSpokeWhileIdle(_ handle: OpaquePointer) -> Bool {
        let socket = PQsocket(handle)
        guard socket >= 0 else { return true }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }
}

@available(*, unavailable, message: "a PostgresConnection belongs to one thread at a time")
extension PostgresConnection: Sendable {}

/// The notice processor installed on every connection: server notices are dropped, not printed.
private func discardNotice(_ argument: UnsafeMutableRawPointer?, _ message: UnsafePointer<CChar>?) {}

/// Calls `body` with a NULL-terminated array of C strings that stays valid for the call, or with
/// `nil` when memory for the copies could not be allocated.
private func withCStringArray<Result>(
    _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result
) -> Result {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    guard copies.allSatisfy({ $0 != nil }) else { return body(nil) }
    let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}
