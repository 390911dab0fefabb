import CLibPQ
import StoreSQL

/// A statement held back for the connection's next round trip.
struct QueuedStatement {
    let sql: String
    let parameters: PostgresParameters
}

/// Sending several statements in one round trip: libpq's pipeline mode.
///
/// The statements a write transaction does not need the results of (``PostgresConnection/executeDeferred(_:)``),
/// and its `BEGIN`, wait on the connection until a statement whose result is read, or the
/// `COMMIT`: then all of them are sent at once, followed by one `Sync`, and their results are read
/// in order. The server runs them one after another exactly as if they had been sent one at a time;
/// only the waiting between them is gone.
///
/// - Errors: when a statement fails, the server skips every later one up to the `Sync`
///   (`PGRES_PIPELINE_ABORTED`) and the transaction is aborted; the first error is thrown. A
///   `COMMIT` in an aborted pipeline never runs, so the transaction stays open in its failed state
///   until the caller rolls it back.
/// - Prepared statements: a text the cache does not hold yet is prepared in the same pipeline
///   (`PQsendPrepare` before `PQsendQueryPrepared`); if its preparation did not succeed, the cache
///   forgets it.
/// - Blocking: the connection stays in blocking mode. Everything is written before anything is read,
///   which is safe while what is sent fits in the socket's buffers; ``PostgresConnection/maximumQueuedStatements``
///   bounds it, and the store defers only small statements.
/// - A connection left in pipeline mode by a failure is replaced before its next job.
extension PostgresConnection {
    /// What one sent command was, to make sense of its result.
    private enum Sent {
        case begin
        case prepare(sql: String, types: [UInt32])
        case statement(sql: String, types: [UInt32], isLast: Bool)
    }

    /// Sends what is held back, if anything, in one round trip.
    func flushQueued() throws(DatabaseError) {
        guard pendingBegin != nil || !queued.isEmpty else { return }
        _ = try flush(then: [], prepared: true)
    }

    /// Sends the held-back `BEGIN` and statements, then `lasts` (prepared through the cache when
    /// `prepared`), in one pipeline; returns the results of `lasts`, in order.
    func flush(then lasts: [QueuedStatement], prepared: Bool) throws(DatabaseError) -> [PostgresResult] {
        // Nothing is taken off the connection until the pipeline is open: a connection that cannot
        // open one (it is not idle) keeps its transaction's BEGIN and statements for the next try.
        guard PQenterPipelineMode(handle) == 1 else { throw clientError() }
        let begin = pendingBegin
        let statements = queued
        pendingBegin = nil
        queued.removeAll()
        roundTrips += 1
        var sent: [Sent] = []
        sent.reserveCapacity(statements.count * 2 + 2)
        if let begin {
            guard PQsendQueryParams(handle, begin, 0, nil, nil, nil, nil, 0) == 1 else { throw abandonPipeline() }
            sent.append(.begin)
        }
        for statement in statements {
            try send(statement, prepared: true, isLast: false, into: &sent)
        }
        for last in lasts { try send(last, prepared: prepared, isLast: true, into: &sent) }
        guard PQpipelineSync(handle) == 1 else { throw abandonPipeline() }
        return try readResults(of: sent)
    }

    private func send(
        _ statement: QueuedStatement, prepared: Bool, isLast: Bool, into sent: inout [Sent]
    ) throws(DatabaseError) {
        let parameters = statement.parameters
        let types = parameters.types
        var name = prepared && self.statements.isEnabled ? self.statements.name(for: statement.sql, types: types) : nil
        if prepared, name == nil, let fresh = self.statements.newName() {
            let accepted = types.withUnsafeBufferPointer { types in
                PQsendPrepare(handle, fresh, statement.sql, Int32(parameters.count), types.baseAddress)
            }
            guard accepted == 1 else { throw abandonPipeline() }
            self.statements.insert(name: fresh, sql: statement.sql, types: types)
            sent.append(.prepare(sql: statement.sql, types: types))
            name = fresh
        }
        let accepted: Int32
        if let name {
            accepted = parameters.withUnsafeArrays { _, values, lengths, formats in
                PQsendQueryPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 0)
            }
        } else {
            accepted = parameters.withUnsafeArrays { types, values, lengths, formats in
                PQsendQueryParams(handle, statement.sql, Int32(parameters.count), types, values, lengths, formats, 0)
            }
        }
        guard accepted == 1 else { throw abandonPipeline() }
        sent.append(.statement(sql: statement.sql, types: types, isLast: isLast))
    }

    /// Reads one result per sent command, then the `Sync`, and leaves pipeline mode.
    private func readResults(of sent: [Sent]) throws(DatabaseError) -> [PostgresResult] {
        var firstError: DatabaseError?
        var lastResults: [PostgresResult] = []
        for command in sent {
            guard let raw = PQgetResult(handle) else { throw abandonPipeline() }
            let result = PostgresResult(taking: raw)
            // Each command's results end with a null result.
            while let extra = PQgetResult(handle) { PQclear(extra) }
            let succeeded: Bool
            switch result.status {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
                succeeded = true
            case PGRES_PIPELINE_ABORTED:
                succeeded = false
            default:
                succeeded = false
                if firstError == nil { firstError = error(from: result) }
                if case .statement(let sql, let types, _) = command, Self.isStaleStatementError(result.handle) {
                    // A prepared statement that no longer fits its tables: the transaction must run again.
                    statements.remove(sql: sql, types: types)
                    statementWentStale = true
                }
            }
            switch command {
            case .begin:
                beginAcknowledged = succeeded
            case .prepare(let sql, let types):
                // Never prepared on the server: the name must not be used.
                if !succeeded { statements.forget(sql: sql, types: types) }
            case .statement(_, _, let isLast):
                if isLast, succeeded { lastResults.append(result) }
            }
        }
        guard let sync = PQgetResult(handle) else { throw abandonPipeline() }
        let synced = PQresultStatus(sync) == PGRES_PIPELINE_SYNC
        PQclear(sync)
        guard synced, PQexitPipelineMode(handle) == 1 else { throw abandonPipeline() }
        if let firstError { throw firstError }
        return lastResults
    }

    /// The error for a pipeline that cannot go on (the connection broke, or libpq refused a
    /// command). The connection stays in pipeline mode and is replaced before its next job.
    private func abandonPipeline() -> DatabaseError {
        clientError()
    }
}
