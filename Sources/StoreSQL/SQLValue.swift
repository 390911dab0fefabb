/// A value as it travels to and from a SQL database.
///
/// Both drivers speak only these four shapes. Money is stored as integer minor units, instants as
/// integer milliseconds since 1970, flags as 0 or 1 — so the same SQL and the same decoding work on
/// SQLite and PostgreSQL.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])
}

extension SQLValue: CustomStringConvertible {
    /// A description that never shows the value itself: bound values may be personal data.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer: "<integer>"
        case .text: "<text>"
        case .blob(let bytes): "<blob \(bytes.count) bytes>"
        }
    }
}

/// A Swift value that can be bound into a ``SQLQuery``.
public protocol SQLBindable: Sendable {
    var sqlValue: SQLValue { get }
}

extension Int64: SQLBindable {
    @inlinable
    public var sqlValue: SQLValue { .integer(self) }
}

extension Int: SQLBindable {
    @inlinable
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Int32: SQLBindable {
    @inlinable
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension String: SQLBindable {
    @inlinable
    public var sqlValue: SQLValue { .text(self) }
}

extension Substring: SQLBindable {
    @inlinable
    public var sqlValue: SQLValue { .text(String(self)) }
}

extension Bool: SQLBindable {
    @inlinable
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
}

extension Array: SQLBindable where Element == UInt8 {
    @inlinable
    public var sqlValue: SQLValue { .blob(self) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    @inlinable
    public var sqlValue: SQLValue {
        switch self {
        case .none: .null
        case .some(let wrapped): wrapped.sqlValue
        }
    }
}

extension SQLValue: SQLBindable {
    @inlinable
    public var sqlValue: SQLValue { self }
}
