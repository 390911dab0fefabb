import CLibPQ
import StoreSQL

/// Owns one `PGresult` and clears it when released.
///
/// Never shared between threads; lives only as long as the call that produced it needs it.
final class PostgresResult {
    let handle: OpaquePointer

    /// Takes ownership of `handle`: it is cleared (`PQclear`) when this object is released.
    init(taking handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQclear(handle)
    }

    var status: ExecStatusType { PQresultStatus(handle) }

    /// One field of the error report (`PG_DIAG_*`), or `nil` when the result does not carry it.
    func errorField(_ field: Int32) -> String? {
        guard let value = PQresultErrorField(handle, field) else { return nil }
        return String(cString: value)
    }

    /// libpq's whole error text for this result (may include `DETAIL` lines; never show it as is).
    var errorMessage: String {
        guard let message = PQresultErrorMessage(handle) else { return "" }
        return String(cString: message)
    }

    /// The command tag's verb, e.g. `COMMIT` or `ROLLBACK`.
    var commandStatus: String {
        guard let status = PQcmdStatus(handle) else { return "" }
        return String(cString: status)
    }

    /// The number of rows the command affected or returned (`PQcmdTuples`), 0 when it reports none.
    var affectedRows: Int {
        guard let tuples = PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: tuples)) ?? 0
    }

    /// Every row, each value decoded by its column's type.
    func rows() throws(DatabaseError) -> [SQLRow] {
        let rowCount = Int(PQntuples(handle))
        let columnCount = Int(PQnfields(handle))
        guard rowCount > 0 else { return [] }
        var columns: [String] = []
        var types: [UInt32] = []
        columns.reserveCapacity(columnCount)
        types.reserveCapacity(columnCount)
        for column in 0..<Int32(columnCount) {
            columns.append(PQfname(handle, column).map { String(cString: $0) } ?? "?column?")
            types.append(PQftype(handle, column))
        }

        var rows: [SQLRow] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            var values: [SQLValue] = []
            values.reserveCapacity(columnCount)
            for column in 0..<Int32(columnCount) {
                if PQgetisnull(handle, row, column) != 0 {
                    values.append(.null)
                    continue
                }
                let length = Int(PQgetlength(handle, row, column))
                guard let pointer = PQgetvalue(handle, row, column) else {
                    throw .decoding(column: columns[Int(column)], expected: "a value")
                }
                let bytes = UnsafeBufferPointer(
                    start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: length)
                values.append(
                    try PostgresValueDecoder.value(bytes, oid: types[Int(column)], column: columns[Int(column)]))
            }
            rows.append(SQLRow(columns: columns, values: values))
        }
        return rows
    }
}
