/// A SQL statement with its bound values, built by string interpolation.
///
/// Every interpolated value becomes a bind parameter, never text in the SQL:
///
/// ```swift
/// let query: SQLQuery = "SELECT title FROM products WHERE id = \(productID) AND stock >= \(quantity)"
/// ```
///
/// SQL text that is not a literal must be spelled out with the `unsafeSQL:` label, which makes the
/// one dangerous operation easy to find in review.
public struct SQLQuery: Sendable, Hashable {
    // Inlinable, like the interpolation below: every query is built by a repository in another
    // module, and a generic call across modules asks the runtime for its types' metadata each time.
    @usableFromInline
    enum Fragment: Sendable, Hashable {
        case sql(String)
        case bind(SQLValue)
    }

    @usableFromInline
    private(set) var fragments: [Fragment]

    /// A query made of trusted SQL text with no binds (for example a migration's DDL).
    public init(unsafeSQL sql: String) {
        fragments = [.sql(sql)]
    }

    @usableFromInline
    init(fragments: [Fragment]) {
        self.fragments = fragments
    }

    /// The SQL text for `dialect`, with numbered placeholders, and the values to bind in order.
    public func rendered(for dialect: SQLDialect) -> (sql: String, bindings: [SQLValue]) {
        // Every statement a request runs is rendered: the text's length is counted first, so the
        // text is written once, straight into the string's own storage, each fragment with one
        // copy; placeholders up to ?64 are spelled once per process.
        var length = 0
        var bindCount = 0
        for fragment in fragments {
            switch fragment {
            case .sql(let text): length += text.utf8.count
            case .bind:
                bindCount += 1
                length += dialect.placeholder(bindCount).utf8.count
            }
        }
        var bindings: [SQLValue] = []
        bindings.reserveCapacity(bindCount)
        let sql = String(unsafeUninitializedCapacity: length) { buffer in
            var written = 0
            for fragment in fragments {
                switch fragment {
                case .sql(let text):
                    written = Self.copy(text, into: buffer, at: written)
                case .bind(let value):
                    bindings.append(value)
                    written = Self.copy(dialect.placeholder(bindings.count), into: buffer, at: written)
                }
            }
            return written
        }
        return (sql, bindings)
    }

    /// Copies `text`'s UTF-8 into `buffer` from `offset` on; returns where it ended. The caller
    /// counted the lengths, so it fits.
    private static func copy(_ text: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        var text = text
        return text.withUTF8 { source in
            let destination = UnsafeMutableBufferPointer(rebasing: buffer[offset..<(offset + source.count)])
            return offset + destination.initialize(fromContentsOf: source)
        }
    }

    /// Appends another query (its text and its binds).
    public mutating func append(_ other: SQLQuery) {
        fragments.append(contentsOf: other.fragments)
    }

    /// Joins queries with a separator, e.g. a list of `VALUES` tuples.
    public static func joined(_ parts: [SQLQuery], separator: String) -> SQLQuery {
        var result = SQLQuery(fragments: [])
        for (index, part) in parts.enumerated() {
            if index > 0 { result.fragments.append(.sql(separator)) }
            result.append(part)
        }
        return result
    }
}

extension SQLQuery: ExpressibleByStringInterpolation {
    @inlinable
    public init(stringLiteral value: String) {
        fragments = [.sql(value)]
    }

    @inlinable
    public init(stringInterpolation: StringInterpolation) {
        fragments = stringInterpolation.fragments
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        @usableFromInline
        var fragments: [Fragment] = []

        @inlinable
        public init(literalCapacity: Int, interpolationCount: Int) {
            fragments.reserveCapacity(interpolationCount * 2 + 1)
        }

        @inlinable
        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { fragments.append(.sql(literal)) }
        }

        /// Binds a value.
        @inlinable
        public mutating func appendInterpolation(_ value: some SQLBindable) {
            fragments.append(.bind(value.sqlValue))
        }

        /// Binds an optional value: `NULL` when it is `nil`.
        @inlinable
        public mutating func appendInterpolation<Value: SQLBindable>(_ value: Value?) {
            fragments.append(.bind(value.sqlValue))
        }

        /// Embeds another query, with its binds.
        @inlinable
        public mutating func appendInterpolation(_ query: SQLQuery) {
            fragments.append(contentsOf: query.fragments)
        }

        /// Embeds trusted SQL text (an identifier chosen by the program, never by a user).
        @inlinable
        public mutating func appendInterpolation(unsafeSQL sql: String) {
            fragments.append(.sql(sql))
        }
    }
}

extension SQLQuery: CustomStringConvertible {
    /// The SQL text with placeholders; bound values are never shown.
    public var description: String { rendered(for: .sqlite).sql }
}
