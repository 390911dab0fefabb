import CLibPQ
import StoreSQL

/// The outcome of running a write transaction once, on a worker thread.
enum WriteAttempt<Value: Sendable>: Sendable {
    case committed(Value)
    /// The transaction did not commit. `retryAfter` is the conflict to report if running it again
    /// is safe and may succeed, `nil` when `error` is final.
    case failed(any Error, retryAfter: DatabaseError?)

    /// `BEGIN`, `body`, `COMMIT` on `connection`; rolls back whenever the commit is not reached.
    static func run(
        on connection: PostgresConnection, begin: String,
        body: (any SQLConnection) throws -> Value
    ) -> WriteAttempt {
        do throws(DatabaseError) {
            try connection.command(begin)
        } catch let error where error.kind == .connectionFailed {
            // The server closed the connection before this transaction sent anything: it is safe
            // to open a new connection and begin there.
            do throws(DatabaseError) {
                try connection.reconnect()
                try connection.command(begin)
            } catch {
                return .failed(error, retryAfter: nil)
            }
        } catch {
            return .failed(error, retryAfter: error.isTransient ? error : nil)
        }

        let value: Value
        do {
            value = try body(connection)
        } catch {
            let stale = connection.statementWentStale
            connection.rollbackQuietly()
            if let databaseError = error as? DatabaseError, databaseError.isTransient {
                return .failed(error, retryAfter: databaseError)
            }
            if stale, let cause = connection.lastError { return .failed(error, retryAfter: cause) }
            return .failed(error, retryAfter: nil)
        }

        switch connection.transactionStatus {
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
            let tag = try connection.command("COMMIT")
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
            // A failed COMMIT (e.g. a serialization failure found at commit) ends the transaction.
            return .failed(error, retryAfter: error.isTransient ? error : nil)
        }
    }
}
