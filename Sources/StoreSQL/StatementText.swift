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
