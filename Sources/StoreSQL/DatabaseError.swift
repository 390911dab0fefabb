/// An error from a database driver, with the driver's own code and message.
///
/// The description carries the code and the C library's message but never the SQL text or a bound
/// value, so it can be logged without leaking personal data.
public struct DatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The database is locked by another writer (SQLite `SQLITE_BUSY`/`SQLITE_LOCKED`).
        case busy
        /// A serializable transaction could not be ordered (PostgreSQL `40001`).
        case serializationFailure
        /// Two transactions waited on each other (PostgreSQL `40P01`).
        case deadlock
        case uniqueViolation
        case foreignKeyViolation
        case checkViolation
        case notNullViolation
        /// The database could not be reached or the connection broke.
        case connectionFailed
        /// The file is not a database, or is damaged.
        case corrupt
        /// The disk is full or an I/O operation failed.
        case storageFailure
        /// The program used the driver wrongly (a bug).
        case misuse
        /// A column held a value of an unexpected type, or was missing.
        case decoding
        /// A transient failure kept recurring after the bounded number of retries.
        case retriesExhausted
        /// What a statement expected of the data did not hold (PostgreSQL's `store_expect`,
        /// SQLSTATE `SX001`): the transaction was rolled back, and its caller takes the way that
        /// looks at each answer.
        case expectationFailed
        case other
    }

    public let kind: Kind
    /// The driver's code: `SQLITE_BUSY (5)` or a PostgreSQL SQLSTATE such as `40001`.
    public let code: String
    /// The driver's message for people (for PostgreSQL the primary message, without detail lines
    /// that could quote values).
    public let message: String

    public init(kind: Kind, code: String, message: String) {
        self.kind = kind
        self.code = code
        self.message = message
    }

    /// Whether running the same transaction again may succeed.
    public var isTransient: Bool {
        switch kind {
        case .busy, .serializationFailure, .deadlock: true
        default: false
        }
    }

    public var description: String { "database error \(kind.rawValue) [\(code)]: \(message)" }

    /// A column value that could not be decoded as the requested type.
    public static func decoding(column: String, expected: String) -> DatabaseError {
        DatabaseError(kind: .decoding, code: "decoding", message: "column \(column) is not \(expected)")
    }
}
