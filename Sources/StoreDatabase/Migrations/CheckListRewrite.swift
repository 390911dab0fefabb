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
/// every row kept still satisfies it. Each list must be found exactly once in its table's text, and
/// the rewritten schema is read back before the migration is recorded: otherwise the migration
/// throws, and its transaction leaves nothing changed.
enum CheckListRewrite {
    /// Every such list in the schema of versions 1 to 11, as SQLite stores it.
    static let lists: [(table: String, text: String)] = [
        ("payment_attempts", "state IN ('pending', 'succeeded', 'failed')"),
        ("payment_attempts", "payment_method IN ('card', 'payment_link', 'qr_code')"),
        ("orders", "payment_method IN ('card', 'payment_link', 'qr_code')"),
        ("orders", "fulfilment_status IN ('unfulfilled', 'packed', 'shipped', 'delivered', 'cancelled')"),
        ("staff", "role IN ('owner', 'catalog', 'orders')"),
        (
            "stock_movements",
            "reason IN (\n        'received', 'counted', 'damaged', 'returned', 'other', 'sale', 'sale_released')"
        ),
        ("refunds", "kind IN ('lines', 'goodwill', 'cancellation')"),
        ("refunds", "state IN ('pending', 'succeeded', 'failed')"),
    ]

    /// `column IN ('a', 'b')` as `(column = 'a' OR column = 'b')`; `nil` for text of another shape.
    /// The values are SQL string literals without commas or parentheses, as every list above is.
    static func comparisons(for list: String) -> String? {
        guard let open = list.range(of: " IN ("), list.hasSuffix(")") else { return nil }
        let column = String(list[..<open.lowerBound])
        guard !column.isEmpty, column.allSatisfy({ $0.isLetter || $0 == "_" }) else { return nil }
        let values = list[open.upperBound..<list.index(before: list.endIndex)]
            .split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard values.count > 2,
            values.allSatisfy({
                $0.count >= 2 && $0.first == "'" && $0.last == "'" && !$0.dropFirst().dropLast().contains("'")
            })
        else { return nil }
        return "(" + values.map { "\(column) = \($0)" }.joined(separator: " OR ") + ")"
    }

    static func apply(on connection: any SQLConnection) throws {
        guard let version = try connection.queryFirst("PRAGMA schema_version")?.decode("schema_version", as: Int64.self)
        else { throw failure("the schema version could not be read") }
        try connection.execute("PRAGMA writable_schema = ON")
        do {
            for (table, text) in lists {
                guard let rewritten = comparisons(for: text) else { throw failure("\(table): a list of another shape") }
                let changed = try connection.execute(
                    """
                    UPDATE sqlite_schema SET sql = replace(sql, \(text), \(rewritten))
                    WHERE type = 'table' AND name = \(table)
                      AND instr(sql, \(text)) > 0 AND instr(substr(sql, instr(sql, \(text)) + 1), \(text)) = 0
                    """)
                guard changed == 1 else { throw failure("\(table): the list was not found once") }
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
        // Read every rewritten table's definition back: a text SQLite cannot parse fails here.
        for table in Set(lists.map(\.table)).sorted() {
            _ = try connection.query(SQLQuery(unsafeSQL: "SELECT * FROM \(table) LIMIT 0"))
        }
    }

    private static func failure(_ message: String) -> DatabaseError {
        DatabaseError(kind: .other, code: "migration 12", message: "check constraints: \(message)")
    }
}
