/// One row of a query result: column names (shared by every row of the result) and values.
public struct SQLRow: Sendable, Hashable {
    public let columns: [String]
    public let values: [SQLValue]

    public init(columns: [String], values: [SQLValue]) {
        precondition(columns.count == values.count, "a row has one value per column")
        self.columns = columns
        self.values = values
    }

    /// The raw value of the column named `name`.
    @inlinable
    public func value(_ name: String) throws(DatabaseError) -> SQLValue {
        guard let index = columns.firstIndex(of: name) else {
            throw DatabaseError(kind: .decoding, code: "decoding", message: "no column named \(name)")
        }
        return values[index]
    }

    /// The column named `name` decoded as `T`.
    @inlinable
    public func decode<T: SQLDecodable>(_ name: String, as type: T.Type = T.self) throws(DatabaseError) -> T {
        try T(sqlValue: value(name), column: name)
    }
}

/// A Swift value that can be read from a ``SQLValue``.
public protocol SQLDecodable {
    init(sqlValue: SQLValue, column: String) throws(DatabaseError)
}

extension Int64: SQLDecodable {
    @inlinable
    public init(sqlValue: SQLValue, column: String) throws(DatabaseError) {
        guard case .integer(let value) = sqlValue else { throw .decoding(column: column, expected: "an integer") }
        self = value
    }
}

extension Int: SQLDecodable {
    @inlinable
    public init(sqlValue: SQLValue, column: String) throws(DatabaseError) {
        guard case .integer(let value) = sqlValue, let int = Int(exactly: value) else {
            throw .decoding(column: column, expected: "an integer")
        }
        self = int
    }
}

extension Bool: SQLDecodable {
    @inlinable
    public init(sqlValue: SQLValue, column: String) throws(DatabaseError) {
        guard case .integer(let value) = sqlValue, value == 0 || value == 1 else {
            throw .decoding(column: column, expected: "a flag (0 or 1)")
        }
        self = value == 1
    }
}

extension String: SQLDecodable {
    @inlinable
    public init(sqlValue: SQLValue, column: String) throws(DatabaseError) {
        guard case .text(let value) = sqlValue else { throw .decoding(column: column, expected: "text") }
        self = value
    }
}

extension Array: SQLDecodable where Element == UInt8 {
    @inlinable
    public init(sqlValue: SQLValue, column: String) throws(DatabaseError) {
        guard case .blob(let value) = sqlValue else { throw .decoding(column: column, expected: "a blob") }
        self = value
    }
}

extension Optional: SQLDecodable where Wrapped: SQLDecodable {
    @inlinable
    public init(sqlValue: SQLValue, column: String) throws(DatabaseError) {
        if case .null = sqlValue {
            self = .none
        } else {
            self = .some(try Wrapped(sqlValue: sqlValue, column: column))
        }
    }
}
