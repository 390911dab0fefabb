import CLibPQ
import StoreSQL

/// The outcome of running a write transaction once, on a worker thread.
enum WriteAttempt<Value: Sendable>: Sendable {
    case committed(Value)
    /// The transaction did not commit. `retryAfter` is the conflict to report if running it again
    /// is safe and may succeed, `nil` when `error` is final.
    case failed(any Error, retryAfter: DatabaseError?)

    /// `BEGIN`, `body`, `COMMIT` on `connection`; rolls back whenever the commit is not reached.
    ///
    /// The `BEGIN` is sent with the transaction's first round trip, and the statements `body` defers
    /// with the `COMMIT` (see ``PostgresConnection/flush(then:prepared:)``).
    static func run(
        on connection: PostgresConnection, begin: String,
        body: (any SQLConnection) throws -> Value
    ) -> WriteAttempt {
        var freshConnection = false
        while true {
            connection.beginLater(begin)
            let value: Value
            do {
                value = try body(connection)
            } catch let error as DatabaseError
                where error.kind == .connectionFailed && !connection.beginAcknowledged && !freshConnection
            {
                // The server closed the connection before this transaction's first round trip was
                // answered: nothing of it can have been committed. Open a new connection and run it
                // again there, once.
                freshConnection = true
                do throws(DatabaseError) {
                    try connection.reconnect()
                } catch {
                    return .failed(error, retryAfter: nil)
                }
                continue
            } catch {
                let stale = connection.statementWentStale
                connection.rollbackQuietly()
                if let databaseError = error as? DatabaseError, databaseError.isTransient {
                    return .failed(error, retryAfter: databaseError)
                }
                if stale, let cause = connection.lastError { return .failed(error, retryAfter: cause) }
                return .failed(error, retryAfter: nil)
            }
            return commit(value, on: connection)
        }
    }

    /// Commits what `body` did, once it returned `value`.
    private static func commit(_ value: Value, on connection: PostgresConnection) -> WriteAttempt {
        switch connection.pendingBegin != nil ? PQTRANS_INTRANS : connection.transactionStatus {
        case PQTRANS_INTRANS:
            break
        case PQTRANS_INERROR:
            // `body` caught a database error and returned normally; the server will only roll back.
            let stale = connection.statementWentStale
            connection.rollbackQuietly()
            let cause =
                connection.lastError
                ?? DatabaseError(
                    kind: .other, code: "25P02", message: "the transaction was aborted by an earlier error")
            return .failed(cause, retryAfter: cause.isTransient || stale ? cause : nil)
        case PQTRANS_IDLE:
            let message = "the write closure committed or rolled back the transaction itself"
            return .failed(DatabaseError(kind: .misuse, code: "misuse", message: message), retryAfter: nil)
        default:
            let cause =
                connection.lastError
                ?? DatabaseError(
                    kind: .connectionFailed, code: PostgresErrorMapping.brokenConnectionCode,
                    message: "the connection broke during the transaction")
            return .failed(cause, retryAfter: nil)
        }

        do throws(DatabaseError) {
            let tag = try connection.commit()
            guard tag == "COMMIT" else {
                return .failed(
                    DatabaseError(kind: .other, code: "25P02", message: "the server rolled the transaction back"),
                    retryAfter: nil)
            }
            return .committed(value)
        } catch let error where error.kind == .connectionFailed {
            // The commit may or may not have happened: never run the transaction again.
            return .failed(error, retryAfter: nil)
        } catch {
            // A failed COMMIT (e.g. a serialization failure found at commit), or a deferred
            // statement's error, ends the transaction.
            let stale = connection.statementWentStale
            return .failed(error, retryAfter: error.isTransient ? error : (stale ? error : nil))
        }
    }
}
