import CSQLite
import StoreSQL

/// One prepared statement: owns its `sqlite3_stmt*` and finalizes it when released.
///
/// Used only by the connection that prepared it, one thread at a time. Between uses it is reset
/// with its bindings cleared, so a cached statement holds no lock and no bound value.
///
/// **Bound text and blobs** are copied into one buffer the statement keeps, and SQLite reads them
/// there in place (`SQLITE_STATIC`) until ``reset()`` clears the bindings. Letting SQLite copy each
/// value (`SQLITE_TRANSIENT`) cost one `malloc` and one `free` per value, and the system SQLite is
/// built without its lookaside allocator: about a hundred of each per checkout. The buffer is
/// written only by ``bind(_:database:)``, which a use always pairs with a ``reset()`` first.
final class SQLiteStatement {
    let handle: OpaquePointer
    /// Where the bound text and blobs are, while bound; grown when a use needs more, never shrunk.
    private var boundBytes: UnsafeMutableRawBufferPointer?
    /// The result's column names as last read, and the statement's re-prepare count then: SQLite
    /// prepares a statement afresh after a schema change, which may change its columns.
    private var columnNames: (names: [String], reprepared: Int32)?

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        sqlite3_finalize(handle)
        boundBytes?.deallocate()
    }

    /// Binds `values` to the placeholders `?1…?N`; the count must match the statement's.
    func bind(_ values: [SQLValue], database: OpaquePointer) throws(DatabaseError) {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard expected == values.count else {
            throw .driverMisuse("the statement has \(expected) placeholders but \(values.count) values were bound")
        }
        let buffer = bufferForBinding(values)
        var used = 0
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let resultCode: Int32
            switch value {
            case .null:
                resultCode = sqlite3_bind_null(handle, index)
            case .integer(let integer):
                resultCode = sqlite3_bind_int64(handle, index, integer)
            case .text(let text):
                var text = text
                let start = used
                used += text.withUTF8 { bytes in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[start...]).copyMemory(
                        from: UnsafeRawBufferPointer(bytes))
                    return bytes.count
                }
                resultCode = csqlite_bind_text_in_place(
                    handle, index, buffer.baseAddress.map { $0 + start }, sqlite3_uint64(used - start))
            case .blob(let bytes):
                let start = used
                used += bytes.withUnsafeBytes { raw in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[start...]).copyMemory(from: raw)
                    return raw.count
                }
                resultCode = csqlite_bind_blob_in_place(
                    handle, index, buffer.baseAddress.map { $0 + start }, sqlite3_uint64(used - start))
            }
            guard resultCode == SQLITE_OK else { throw .sqlite(resultCode, handle: database) }
        }
    }

    /// The statement's buffer, with room for every text and blob in `values`.
    private func bufferForBinding(_ values: [SQLValue]) -> UnsafeMutableRawBufferPointer {
        var needed = 0
        for value in values {
            switch value {
            case .text(let text): needed += text.utf8.count
            case .blob(let bytes): needed += bytes.count
            case .null, .integer: continue
            }
        }
        if let boundBytes, boundBytes.count >= needed { return boundBytes }
        boundBytes?.deallocate()
        let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: max(needed, 256), alignment: 8)
        boundBytes = grown
        return grown
    }

    /// Steps until the statement is done, discarding any rows.
    func run(database: OpaquePointer) throws(DatabaseError) {
        while true {
            let resultCode = sqlite3_step(handle)
            switch resultCode {
            case SQLITE_ROW: continue
            case SQLITE_DONE: return
            default: throw .sqlite(resultCode, handle: database)
            }
        }
    }

    /// Steps until the statement is done, collecting every row.
    func rows(database: OpaquePointer) throws(DatabaseError) -> [SQLRow] {
        var rows: [SQLRow] = []
        var columns: [String] = []
        var columnCount: Int32 = 0
        while true {
            let resultCode = sqlite3_step(handle)
            if resultCode == SQLITE_ROW, rows.isEmpty {
                // After the first step: a statement SQLite had to prepare again has done so.
                columns = try self.columns()
                columnCount = Int32(columns.count)
            }
            switch resultCode {
            case SQLITE_ROW:
                var values: [SQLValue] = []
                values.reserveCapacity(columns.count)
                for column in 0..<columnCount {
                    values.append(try value(at: column, name: columns[Int(column)], database: database))
                }
                rows.append(SQLRow(columns: columns, values: values))
            case SQLITE_DONE:
                return rows
            default:
                throw .sqlite(resultCode, handle: database)
            }
        }
    }

    /// The result's column names: read from SQLite once, and again after SQLite prepared the
    /// statement afresh (`SQLITE_STMTSTATUS_REPREPARE`).
    private func columns() throws(DatabaseError) -> [String] {
        let reprepared = sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
        if let columnNames, columnNames.reprepared == reprepared { return columnNames.names }
        let columnCount = sqlite3_column_count(handle)
        var names: [String] = []
        names.reserveCapacity(Int(columnCount))
        for column in 0..<columnCount {
            guard let name = sqlite3_column_name(handle, column) else {
                throw .sqlite(SQLITE_NOMEM, message: "out of memory reading a column name")
            }
            names.append(String(cString: name))
        }
        columnNames = (names, reprepared)
        return names
    }

    /// Resets the statement and clears its bindings so it can be reused (or finalized) cleanly.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// The value of `column` in the current row, by its storage class.
    ///
    /// Text and blobs are read with their byte count (`sqlite3_column_bytes` after the pointer), so
    /// embedded NULs survive and no terminator is assumed. A floating-point value is refused: the
    /// store keeps every number as an integer.
    private func value(at column: Int32, name: String, database: OpaquePointer) throws(DatabaseError) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL:
            return .null
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_TEXT:
            let pointer = sqlite3_column_text(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let pointer else {
                try throwIfOutOfMemory(database)
                return .text("")
            }
            return .text(String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let pointer = sqlite3_column_blob(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let pointer, count > 0 else {
                try throwIfOutOfMemory(database)
                return .blob([])
            }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default:
            throw DatabaseError(
                kind: .decoding, code: "decoding",
                message: "column \(name) holds a floating-point value; the store keeps numbers as integers")
        }
    }

    /// A NULL pointer from `sqlite3_column_text`/`_blob` means empty, unless memory ran out.
    private func throwIfOutOfMemory(_ database: OpaquePointer) throws(DatabaseError) {
        if sqlite3_errcode(database) == SQLITE_NOMEM {
            throw .sqlite(SQLITE_NOMEM, handle: database)
        }
    }
}

/// A bounded cache of prepared statements keyed by their SQL text, evicting the least recently used.
struct StatementCache {
    /// A class, so that marking a use changes the entry in place, without hashing the SQL again.
    private final class Entry {
        let statement: SQLiteStatement
        var lastUse: UInt64

        init(statement: SQLiteStatement, lastUse: UInt64) {
            self.statement = statement
            self.lastUse = lastUse
        }
    }

    let capacity: Int
    private var entries: [SQLShape: Entry] = [:]
    private var clock: UInt64 = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { entries.count }

    /// The cached statement for queries of `shape`, marked as just used.
    mutating func statement(for shape: SQLShape) -> SQLiteStatement? {
        guard let entry = entries[shape] else { return nil }
        clock += 1
        entry.lastUse = clock
        return entry.statement
    }

    /// Caches `statement`, evicting (and so finalizing) the least recently used one when full.
    mutating func insert(_ statement: SQLiteStatement, for shape: SQLShape) {
        guard capacity > 0 else { return }
        let key = shape.withoutValues
        if entries[key] == nil, entries.count >= capacity,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
        {
            entries[oldest] = nil
        }
        clock += 1
        entries[key] = Entry(statement: statement, lastUse: clock)
    }

    mutating func removeAll() {
        entries.removeAll()
    }
}
