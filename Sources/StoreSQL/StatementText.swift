/// A statement's SQL text as the key of a driver's statement cache.
///
/// Every statement a request runs is looked up by its text, and a checkout runs about forty of a
/// few hundred bytes each: hashing every byte with `String`'s hasher was 2 % of a checkout's
/// instructions. This key hashes the text's length and four eight-byte words of it (its start, a
/// third and two thirds in, its end). Two texts that hash alike still differ by `==`, which
/// compares every byte, so a lookup never finds another statement. The texts are the program's own
/// SQL (bound values are never in them), so nobody outside chooses what collides; the hasher is
/// still `Hasher`, seeded per process.
public struct StatementText: Hashable, Sendable {
    public let sql: String

    public init(_ sql: String) {
        self.sql = sql
    }

    public static func == (lhs: StatementText, rhs: StatementText) -> Bool {
        lhs.sql == rhs.sql
    }

    public func hash(into hasher: inout Hasher) {
        var sql = sql
        sql.withUTF8 { bytes in
            hasher.combine(bytes.count)
            guard bytes.count >= 8 else {
                hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
                return
            }
            let raw = UnsafeRawBufferPointer(bytes)
            hasher.combine(raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
            hasher.combine(raw.loadUnaligned(fromByteOffset: (bytes.count - 8) / 3, as: UInt64.self))
            hasher.combine(raw.loadUnaligned(fromByteOffset: (bytes.count - 8) * 2 / 3, as: UInt64.self))
            hasher.combine(raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
        }
    }
}

/// What a query's SQL text is made of — its text fragments in order and where its placeholders
/// are — without the values bound to them: two queries of one shape render the same text for a
/// dialect. A driver in the same process looks its prepared statements up by shape, so that a
/// statement it has prepared before is found without writing the text out again (that was about
/// 3 % of a checkout's instructions on SQLite).
///
/// A shape made from a query for a lookup shares the query's fragments. One kept by a cache has
/// its bound values taken out (``withoutValues``), so no value a request bound, a password's hash
/// say, stays in memory with the statement.
///
/// The hash takes the number of fragments, each text's length and where the placeholders are; `==`
/// compares every text (at once when both are the same literal of the program, whose storage is
/// shared).
public struct SQLShape: Hashable, Sendable {
    fileprivate let fragments: [SQLQuery.Fragment]

    fileprivate init(fragments: [SQLQuery.Fragment]) {
        self.fragments = fragments
    }

    /// The same shape, holding no bound value.
    public var withoutValues: SQLShape {
        SQLShape(
            fragments: fragments.map { fragment in
                if case .bind = fragment { .bind(.null) } else { fragment }
            })
    }

    public static func == (lhs: SQLShape, rhs: SQLShape) -> Bool {
        guard lhs.fragments.count == rhs.fragments.count else { return false }
        for (left, right) in zip(lhs.fragments, rhs.fragments) {
            switch (left, right) {
            case (.sql(let a), .sql(let b)): if a != b { return false }
            case (.bind, .bind): continue
            default: return false
            }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // One word mixed in place and handed to the hasher once: a statement's lookup hashed each
        // text's length and sampled words through the hasher, about 1.7 k instructions, 3 % of a
        // checkout's. Shapes this hash does not tell apart are told by `==`.
        var mixed = UInt64(truncatingIfNeeded: fragments.count)
        for fragment in fragments {
            let length: Int
            switch fragment {
            case .sql(let text): length = text.utf8.count
            case .bind: length = -1
            }
            mixed = (mixed ^ UInt64(bitPattern: Int64(length))) &* 0x0000_0100_0000_01B3
        }
        hasher.combine(mixed)
    }
}

extension SQLQuery {
    /// The query's shape, for looking up a statement prepared from a query like it.
    public var shape: SQLShape { SQLShape(fragments: fragments) }

    /// The values bound to the placeholders, in order.
    public var bindings: [SQLValue] {
        // Counted first, so the array is allocated once rather than grown (a checkout's statements
        // bind up to 14 values each).
        var count = 0
        for fragment in fragments {
            if case .bind = fragment { count += 1 }
        }
        var values: [SQLValue] = []
        values.reserveCapacity(count)
        for fragment in fragments {
            if case .bind(let value) = fragment { values.append(value) }
        }
        return values
    }
}
