import StoreSQL

/// Rewrites, on SQLite, the CHECK constraints that name a list of more than two constants
/// (`state IN ('pending', 'succeeded', 'failed')`) as comparisons joined by `OR`
/// (`(state = 'pending' OR state = 'succeeded' OR state = 'failed')`): the same rule, which SQLite
/// then checks without building a temporary index of the list on every write (see
/// ``Schema/version12``).
///
/// SQLite cannot alter a CHECK constraint. Its documentation gives a procedure for changes that
/// leave every stored row as it is (the ALTER TABLE page, "Making Other Kinds Of Table Schema
/// Changes"): inside one transaction, the table's `CREATE TABLE` text is rewritten in
/// `sqlite_schema` with `writable_schema` on, and the schema version is raised so that every
/// connection reads the schema again. Each rule accepts exactly the values it accepted before, so
/// every row kept still satisfies it. Each list must be found exactly once in its table's text,
/// with exactly its values (white space aside), and the rewritten schema is read back before the
/// migration is recorded: otherwise the migration throws, and its transaction leaves nothing
/// changed.
enum CheckListRewrite {
    /// A CHECK constraint's list: `column IN ('value', …)` in `table`.
    struct List: Sendable {
        let table: String
        let column: String
        let values: [String]

        /// `(column = 'a' OR column = 'b' OR …)`: the same rule, checked in place.
        var comparisons: String {
            "(" + values.map { "\(column) = '\($0)'" }.joined(separator: " OR ") + ")"
        }
    }

    /// Every list of more than two values in the schema of versions 1 to 11.
    static let lists: [List] = [
        List(table: "payment_attempts", column: "state", values: ["pending", "succeeded", "failed"]),
        List(table: "payment_attempts", column: "payment_method", values: ["card", "payment_link", "qr_code"]),
        List(table: "orders", column: "payment_method", values: ["card", "payment_link", "qr_code"]),
        List(
            table: "orders", column: "fulfilment_status",
            values: ["unfulfilled", "packed", "shipped", "delivered", "cancelled"]),
        List(table: "staff", column: "role", values: ["owner", "catalog", "orders"]),
        List(
            table: "stock_movements", column: "reason",
            values: ["received", "counted", "damaged", "returned", "other", "sale", "sale_released"]),
        List(table: "refunds", column: "kind", values: ["lines", "goodwill", "cancellation"]),
        List(table: "refunds", column: "state", values: ["pending", "succeeded", "failed"]),
    ]

    /// `sql` with `list`'s `column IN (…)` written as its comparisons, or `nil` unless the table's
    /// text holds exactly one `column IN (…)` for that column, with exactly the list's values in
    /// order. White space between the words and values may be anything.
    static func rewrite(_ sql: String, _ list: List) -> String? {
        let text = Array(sql.utf8)
        let column = Array(list.column.utf8)
        let expected = list.values.map { Array("'\($0)'".utf8) }
        var found: Range<Int>?
        var start = 0
        while start + column.count <= text.count {
            defer { start += 1 }
            guard text[start..<start + column.count].elementsEqual(column),
                start == 0 || !isWordByte(text[start - 1])
            else { continue }
            var at = skipSpace(text, from: start + column.count)
            guard at > start + column.count, at + 2 <= text.count,
                text[at..<at + 2].elementsEqual(Array("IN".utf8))
            else { continue }
            at = skipSpace(text, from: at + 2)
            guard at < text.count, text[at] == UInt8(ascii: "(") else { continue }
            guard let close = text[(at + 1)...].firstIndex(of: UInt8(ascii: ")")) else { return nil }
            let items = text[(at + 1)..<close].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                .map { item in Array(item.drop(while: isSpace).reversed().drop(while: isSpace).reversed()) }
            // Another list on this column, or this one with other values: not the schema this
            // migration knows.
            guard found == nil, items == expected else { return nil }
            found = start..<(close + 1)
        }
        guard let found else { return nil }
        return String(decoding: text[..<found.lowerBound], as: UTF8.self) + list.comparisons
            + String(decoding: text[found.upperBound...], as: UTF8.self)
    }

    static func apply(on connection: any SQLConnection) throws {
        guard let version = try connection.queryFirst("PRAGMA schema_version")?.decode("schema_version", as: Int64.self)
        else { throw failure("the schema version could not be read") }
        var tables: [String] = []
        for list in lists where !tables.contains(list.table) { tables.append(list.table) }
        try connection.execute("PRAGMA writable_schema = ON")
        do {
            for table in tables {
                guard
                    var sql = try connection.queryFirst(
                        "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = \(table)"
                    )?.decode("sql", as: String.self)
                else { throw failure("\(table): no such table") }
                for list in lists where list.table == table {
                    guard let rewritten = rewrite(sql, list) else {
                        throw failure("\(table): the list of \(list.column) was not found once, as it was written")
                    }
                    sql = rewritten
                }
                try connection.execute("UPDATE sqlite_schema SET sql = \(sql) WHERE type = 'table' AND name = \(table)")
            }
            // PRAGMA takes no bound parameters; the version is an integer read from the database.
            try connection.execute(SQLQuery(unsafeSQL: "PRAGMA schema_version = \(version + 1)"))
        } catch {
            // The flag belongs to the connection, not the transaction: it is turned off whatever
            // happened, and the transaction's rollback undoes the rest.
            _ = try? connection.execute("PRAGMA writable_schema = OFF")
            throw error
        }
        try connection.execute("PRAGMA writable_schema = OFF")
        // Read every rewritten table back: a text SQLite cannot parse fails here, inside the
        // transaction.
        for table in tables {
            _ = try connection.query(SQLQuery(unsafeSQL: "SELECT * FROM \(table) LIMIT 0"))
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
            || byte == UInt8(ascii: "\r")
    }

    private static func skipSpace(_ text: [UInt8], from index: Int) -> Int {
        var at = index
        while at < text.count, isSpace(text[at]) { at += 1 }
        return at
    }

    private static func failure(_ message: String) -> DatabaseError {
        DatabaseError(kind: .other, code: "migration 12", message: "check constraints: \(message)")
    }
}
