import CheckoutKit
import Foundation
import StoreSQL
import StoreTestSupport
import Testing

@testable import StoreDatabase

/// The CHECK constraints that name a list of values, after migration 12 wrote SQLite's as
/// comparisons joined by `OR`: the same rules on both databases, and none of SQLite's writes builds
/// a temporary index of a list any more.
@Suite("Check constraints on lists of values") struct CheckConstraintTests {
    /// Every list, with a value it allows and one it refuses, checked through real rows: a paid
    /// order, its attempt, its stock movements and a seeded staff member.
    @Test(arguments: Backend.allCases)
    func eachListStillAllowsItsValuesAndRefusesOthers(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await makeShopper(database, lines: [(1, 1), (2, 2)])
            let attempt = try await makeAttempt(database, shopper: shopper, method: .card(CardToken("tok_visa")))
            let order = try await placeOrder(database, attempt)
            let rules: [(table: String, column: String, key: String, id: SQLValue, allowed: String, refused: String)] =
                [
                    ("payment_attempts", "state", "id", .text(attempt.id.rawValue), "failed", "paid"),
                    ("payment_attempts", "payment_method", "id", .text(attempt.id.rawValue), "qr_code", "cash"),
                    ("orders", "payment_method", "id", .text(order.id.rawValue), "payment_link", "cash"),
                    ("orders", "fulfilment_status", "id", .text(order.id.rawValue), "delivered", "lost"),
                    ("stock_movements", "reason", "attempt_id", .text(attempt.id.rawValue), "sale_released", "stolen"),
                    ("staff", "role", "email", .text("owner@onlinestore.test"), "orders", "admin"),
                ]
            for rule in rules {
                let update: @Sendable (String) -> SQLQuery = { value in
                    """
                    UPDATE \(unsafeSQL: rule.table) SET \(unsafeSQL: rule.column) = \(value)
                    WHERE \(unsafeSQL: rule.key) = \(rule.id)
                    """
                }
                let refusal = await #expect(throws: DatabaseError.self, "\(rule.table).\(rule.column)") {
                    try await database.sql.write { try $0.execute(update(rule.refused)) }
                }
                #expect(refusal?.kind == .checkViolation, "\(rule.table).\(rule.column)")
                // Upper case is another value: the comparison is exact, as `IN` was.
                await #expect(throws: DatabaseError.self, "\(rule.table).\(rule.column)") {
                    try await database.sql.write { try $0.execute(update(rule.allowed.uppercased())) }
                }
                let changed = try await database.sql.write { try $0.execute(update(rule.allowed)) }
                #expect(changed > 0, "\(rule.table).\(rule.column): \(rule.allowed)")
            }
        }
    }

    /// No table's definition on SQLite keeps a list of more than two constant values, which
    /// SQLite would check by building a temporary index on every write: the refund tables' lists
    /// are rewritten too, and a list added by a later migration fails here.
    @Test func sqliteKeepsNoListOfMoreThanTwoValues() async throws {
        try await withStoreDatabase(.sqlite) { database in
            let tables = try await database.sql.read { connection in
                try connection.query("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND sql IS NOT NULL")
                    .map { (try $0.decode("name", as: String.self), try $0.decode("sql", as: String.self)) }
            }
            #expect(tables.count > 10)
            for (name, sql) in tables {
                #expect(Self.longLists(in: sql).isEmpty, "\(name)")
            }
            let refunds = try #require(tables.first { $0.0 == "refunds" }?.1)
            #expect(refunds.contains("(kind = 'lines' OR kind = 'goodwill' OR kind = 'cancellation')"))
        }
    }

    /// What the change is for: the checkout's writes to these tables open no ephemeral table.
    @Test func sqliteWritesOpenNoEphemeralTableForAList() async throws {
        try await withStoreDatabase(.sqlite) { database in
            let statements: [String] = [
                """
                INSERT INTO payment_attempts (
                    id, shopper_id, idempotency_key, request_fingerprint, state, currency, subtotal_minor,
                    discount_minor, shipping_minor, fee_minor, amount_minor, payment_method, lease_expires_at,
                    created_at, updated_at)
                VALUES ('a', 's', 'k', 'f', 'pending', 'EUR', 100, 0, 0, 0, 100, 'card', 0, 0, 0)
                """,
                "UPDATE payment_attempts SET state = 'succeeded', response_status = 201 WHERE id = 'a'",
                """
                INSERT INTO orders (id, shopper_id, attempt_id, status, currency, subtotal_minor, discount_minor,
                                    shipping_minor, fee_minor, total_minor, payment_method, created_at)
                VALUES ('o', 's', 'a', 'paid', 'EUR', 100, 0, 0, 0, 100, 'card', 0)
                """,
                """
                INSERT INTO stock_movements (product_id, change_units, reason, actor, stock_after, at)
                VALUES (1, -1, 'sale', 'shop', 5, 0)
                """,
            ]
            for statement in statements {
                let opcodes = try await database.sql.read { connection in
                    try connection.query("EXPLAIN \(unsafeSQL: statement)").map {
                        try $0.decode("opcode", as: String.self)
                    }
                }
                #expect(opcodes.contains("Halt"))
                #expect(!opcodes.contains("OpenEphemeral"), "\(statement)")
            }
        }
    }

    /// The migration finds a list whatever the white space around its words and values, and
    /// refuses a table whose text is not the one it knows.
    @Test func aListIsFoundOnceWithItsValuesOrNotAtAll() throws {
        let reason = CheckListRewrite.List(table: "t", column: "reason", values: ["sale", "other", "counted"])
        let written = "(reason = 'sale' OR reason = 'other' OR reason = 'counted')"
        #expect(
            CheckListRewrite.rewrite(
                "CREATE TABLE t (reason TEXT CHECK (reason IN ('sale', 'other', 'counted')))", reason)
                == "CREATE TABLE t (reason TEXT CHECK (\(written)))")
        #expect(
            CheckListRewrite.rewrite("CHECK (reason  IN\n  (\n 'sale','other' ,\t'counted'))", reason)
                == "CHECK (\(written))")
        for other in [
            "CHECK (reason IN ('sale', 'other'))",  // other values
            "CHECK (reason IN ('other', 'sale', 'counted'))",  // another order: not the text it knows
            "CHECK (reasons IN ('sale', 'other', 'counted'))",  // another column
            "CHECK (my_reason IN ('sale', 'other', 'counted'))",
            "CHECK (reason IN ('sale', 'other', 'counted')), CHECK (reason IN ('sale', 'other', 'counted'))",  // twice
            "CHECK (reason = 'sale')",  // already rewritten, or never a list
            "CHECK (reason IN ('sale', 'other', 'counted'",  // not closed
        ] {
            #expect(CheckListRewrite.rewrite(other, reason) == nil, "\(other)")
        }
    }

    /// A schema the migration does not know (here: one it already rewrote) fails it, and leaves
    /// the tables' text as it was and the connection's `writable_schema` off.
    @Test func anUnknownSchemaFailsTheRewriteAndChangesNothing() async throws {
        try await withStoreDatabase(.sqlite) { database in
            let schema: @Sendable (any SQLConnection) throws -> [String] = { connection in
                try connection.query("SELECT sql FROM sqlite_schema WHERE type = 'table' ORDER BY name").map {
                    try $0.decode("sql", as: String.self)
                }
            }
            let before = try await database.sql.read(schema)
            let failure = await #expect(throws: DatabaseError.self) {
                try await database.sql.write { try CheckListRewrite.apply(on: $0) }
            }
            #expect(failure?.message.contains("payment_attempts") == true)
            #expect(try await database.sql.read(schema) == before)
            let writable = try await database.sql.write { connection in
                try connection.queryFirst("PRAGMA writable_schema")?.decode("writable_schema", as: Int.self)
            }
            #expect(writable == 0)
        }
    }

    /// The lists `column IN ('a', 'b', 'c', …)` of more than two quoted values in `sql`.
    static func longLists(in sql: String) -> [String] {
        var found: [String] = []
        var rest = sql[...]
        while let open = rest.range(of: " IN (") {
            guard let close = rest[open.upperBound...].firstIndex(of: ")") else { break }
            let items = rest[open.upperBound..<close].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            if items.count > 2, items.allSatisfy({ $0.hasPrefix("'") && $0.hasSuffix("'") }) {
                found.append(String(rest[open.lowerBound...close]))
            }
            rest = rest[close...]
        }
        return found
    }
}
