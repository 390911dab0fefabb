import CSQLite
import StoreSQL

extension DatabaseError {
    /// The error for a failed SQLite call: kind and code from the (extended) result code, message from
    /// SQLite (`sqlite3_errmsg` or `sqlite3_errstr`), never the SQL text or a bound value.
    static func sqlite(_ resultCode: Int32, message: String) -> DatabaseError {
        DatabaseError(
            kind: SQLiteResultCode.kind(of: resultCode), code: SQLiteResultCode.describe(resultCode), message: message)
    }

    /// The error for the most recent failure on `handle`, with SQLite's message for it.
    static func sqlite(_ resultCode: Int32, handle: OpaquePointer?) -> DatabaseError {
        let message: String
        if let handle, let text = sqlite3_errmsg(handle) {
            message = String(cString: text)
        } else if let text = sqlite3_errstr(resultCode) {
            message = String(cString: text)
        } else {
            message = "unknown SQLite error"
        }
        return sqlite(resultCode, message: message)
    }

    /// An error raised by the driver itself for wrong use of its API.
    static func driverMisuse(_ message: String) -> DatabaseError {
        DatabaseError(kind: .misuse, code: SQLiteResultCode.describe(SQLITE_MISUSE), message: message)
    }

    /// The error every call receives once the database has been closed.
    static let databaseClosed = DatabaseError.driverMisuse("database is closed")

    /// A write left a (deferred) foreign key unresolved: what SQLite's `COMMIT` would report.
    static let unresolvedForeignKey = DatabaseError.sqlite(
        csqlite_constraint_foreignkey, message: "FOREIGN KEY constraint failed")

    /// The error that ends a transient failure which kept recurring.
    static func retriesExhausted(after attempts: Int, last: DatabaseError) -> DatabaseError {
        DatabaseError(
            kind: .retriesExhausted, code: last.code,
            message: "gave up after \(attempts) attempts: \(last.message)")
    }
}

/// Names and classification of SQLite result codes.
enum SQLiteResultCode {
    /// `SQLITE_CONSTRAINT_UNIQUE (2067)`; unknown codes keep their number and primary name.
    static func describe(_ code: Int32) -> String {
        if let name = names[code] { return "\(name) (\(code))" }
        if let primary = names[code & 0xFF] { return "\(primary) (\(code))" }
        return "SQLITE_UNKNOWN (\(code))"
    }

    /// The driver-independent kind of an (extended) result code.
    static func kind(of code: Int32) -> DatabaseError.Kind {
        switch code {
        case csqlite_constraint_unique, csqlite_constraint_primarykey, csqlite_constraint_rowid: return .uniqueViolation
        case csqlite_constraint_foreignkey: return .foreignKeyViolation
        case csqlite_constraint_check: return .checkViolation
        case csqlite_constraint_notnull: return .notNullViolation
        // Plain SQLITE_READONLY is a write attempted on a query-only (reader) connection: writer
        // connections refuse to open on a file they cannot write. The extended READONLY codes come
        // from the file system and are handled with the primary codes below.
        case SQLITE_READONLY: return .misuse
        default: break
        }
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt
        case SQLITE_FULL, SQLITE_IOERR, SQLITE_READONLY: return .storageFailure
        case SQLITE_CANTOPEN: return .connectionFailed
        case SQLITE_MISUSE, SQLITE_RANGE, SQLITE_AUTH: return .misuse
        default: return .other
        }
    }

    /// Every primary and extended result code of SQLite 3.40 that denotes an error.
    private static let names: [Int32: String] = [
        1: "SQLITE_ERROR",
        2: "SQLITE_INTERNAL",
        3: "SQLITE_PERM",
        4: "SQLITE_ABORT",
        5: "SQLITE_BUSY",
        6: "SQLITE_LOCKED",
        7: "SQLITE_NOMEM",
        8: "SQLITE_READONLY",
        9: "SQLITE_INTERRUPT",
        10: "SQLITE_IOERR",
        11: "SQLITE_CORRUPT",
        12: "SQLITE_NOTFOUND",
        13: "SQLITE_FULL",
        14: "SQLITE_CANTOPEN",
        15: "SQLITE_PROTOCOL",
        16: "SQLITE_EMPTY",
        17: "SQLITE_SCHEMA",
        18: "SQLITE_TOOBIG",
        19: "SQLITE_CONSTRAINT",
        20: "SQLITE_MISMATCH",
        21: "SQLITE_MISUSE",
        22: "SQLITE_NOLFS",
        23: "SQLITE_AUTH",
        24: "SQLITE_FORMAT",
        25: "SQLITE_RANGE",
        26: "SQLITE_NOTADB",
        27: "SQLITE_NOTICE",
        28: "SQLITE_WARNING",
        257: "SQLITE_ERROR_MISSING_COLLSEQ",
        261: "SQLITE_BUSY_RECOVERY",
        262: "SQLITE_LOCKED_SHAREDCACHE",
        264: "SQLITE_READONLY_RECOVERY",
        266: "SQLITE_IOERR_READ",
        267: "SQLITE_CORRUPT_VTAB",
        270: "SQLITE_CANTOPEN_NOTEMPDIR",
        275: "SQLITE_CONSTRAINT_CHECK",
        279: "SQLITE_AUTH_USER",
        283: "SQLITE_NOTICE_RECOVER_WAL",
        284: "SQLITE_WARNING_AUTOINDEX",
        513: "SQLITE_ERROR_RETRY",
        516: "SQLITE_ABORT_ROLLBACK",
        517: "SQLITE_BUSY_SNAPSHOT",
        518: "SQLITE_LOCKED_VTAB",
        520: "SQLITE_READONLY_CANTLOCK",
        522: "SQLITE_IOERR_SHORT_READ",
        523: "SQLITE_CORRUPT_SEQUENCE",
        526: "SQLITE_CANTOPEN_ISDIR",
        531: "SQLITE_CONSTRAINT_COMMITHOOK",
        539: "SQLITE_NOTICE_RECOVER_ROLLBACK",
        769: "SQLITE_ERROR_SNAPSHOT",
        773: "SQLITE_BUSY_TIMEOUT",
        776: "SQLITE_READONLY_ROLLBACK",
        778: "SQLITE_IOERR_WRITE",
        779: "SQLITE_CORRUPT_INDEX",
        782: "SQLITE_CANTOPEN_FULLPATH",
        787: "SQLITE_CONSTRAINT_FOREIGNKEY",
        1032: "SQLITE_READONLY_DBMOVED",
        1034: "SQLITE_IOERR_FSYNC",
        1038: "SQLITE_CANTOPEN_CONVPATH",
        1043: "SQLITE_CONSTRAINT_FUNCTION",
        1288: "SQLITE_READONLY_CANTINIT",
        1290: "SQLITE_IOERR_DIR_FSYNC",
        1294: "SQLITE_CANTOPEN_DIRTYWAL",
        1299: "SQLITE_CONSTRAINT_NOTNULL",
        1544: "SQLITE_READONLY_DIRECTORY",
        1546: "SQLITE_IOERR_TRUNCATE",
        1550: "SQLITE_CANTOPEN_SYMLINK",
        1555: "SQLITE_CONSTRAINT_PRIMARYKEY",
        1802: "SQLITE_IOERR_FSTAT",
        1811: "SQLITE_CONSTRAINT_TRIGGER",
        2058: "SQLITE_IOERR_UNLOCK",
        2067: "SQLITE_CONSTRAINT_UNIQUE",
        2314: "SQLITE_IOERR_RDLOCK",
        2323: "SQLITE_CONSTRAINT_VTAB",
        2570: "SQLITE_IOERR_DELETE",
        2579: "SQLITE_CONSTRAINT_ROWID",
        2826: "SQLITE_IOERR_BLOCKED",
        2835: "SQLITE_CONSTRAINT_PINNED",
        3082: "SQLITE_IOERR_NOMEM",
        3091: "SQLITE_CONSTRAINT_DATATYPE",
        3338: "SQLITE_IOERR_ACCESS",
        3594: "SQLITE_IOERR_CHECKRESERVEDLOCK",
        3850: "SQLITE_IOERR_LOCK",
        4106: "SQLITE_IOERR_CLOSE",
        4362: "SQLITE_IOERR_DIR_CLOSE",
        4618: "SQLITE_IOERR_SHMOPEN",
        4874: "SQLITE_IOERR_SHMSIZE",
        5130: "SQLITE_IOERR_SHMLOCK",
        5386: "SQLITE_IOERR_SHMMAP",
        5642: "SQLITE_IOERR_SEEK",
        5898: "SQLITE_IOERR_DELETE_NOENT",
        6154: "SQLITE_IOERR_MMAP",
        6410: "SQLITE_IOERR_GETTEMPPATH",
        6666: "SQLITE_IOERR_CONVPATH",
        6922: "SQLITE_IOERR_VNODE",
        7178: "SQLITE_IOERR_AUTH",
        7434: "SQLITE_IOERR_BEGIN_ATOMIC",
        7690: "SQLITE_IOERR_COMMIT_ATOMIC",
        7946: "SQLITE_IOERR_ROLLBACK_ATOMIC",
        8202: "SQLITE_IOERR_DATA",
        8458: "SQLITE_IOERR_CORRUPTFS",
    ]
}
