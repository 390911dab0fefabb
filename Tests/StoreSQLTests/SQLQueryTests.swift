import StoreSQL
import Testing

@Suite struct SQLQueryTests {
    @Test func interpolatedValuesBecomeBindsNotText() {
        let title = "Robert'); DROP TABLE products;--"
        let query: SQLQuery = "SELECT id FROM products WHERE title = \(title) AND stock >= \(3)"
        let sqlite = query.rendered(for: .sqlite)
        #expect(sqlite.sql == "SELECT id FROM products WHERE title = ?1 AND stock >= ?2")
        #expect(sqlite.bindings == [.text(title), .integer(3)])
        let postgres = query.rendered(for: .postgres)
        #expect(postgres.sql == "SELECT id FROM products WHERE title = $1 AND stock >= $2")
        #expect(postgres.bindings == sqlite.bindings)
    }

    @Test func nestedQueriesKeepTheirBindsInOrder() {
        let condition: SQLQuery = "category = \("bottles")"
        let query: SQLQuery = "SELECT * FROM products WHERE \(condition) AND id > \(Int64(7)) LIMIT \(10)"
        let rendered = query.rendered(for: .postgres)
        #expect(rendered.sql == "SELECT * FROM products WHERE category = $1 AND id > $2 LIMIT $3")
        #expect(rendered.bindings == [.text("bottles"), .integer(7), .integer(10)])
    }

    @Test func optionalsBindNullAndFlagsBindIntegers() {
        let missing: String? = nil
        let query: SQLQuery = "UPDATE t SET a = \(missing), b = \(true), c = \([UInt8]([1, 2]))"
        #expect(query.rendered(for: .sqlite).bindings == [.null, .integer(1), .blob([1, 2])])
    }

    @Test func joinedQueriesNumberPlaceholdersAcrossParts() {
        let rows: [SQLQuery] = [1, 2, 3].map { "(\($0), \("x"))" }
        let query: SQLQuery = "INSERT INTO t VALUES \(SQLQuery.joined(rows, separator: ", "))"
        #expect(query.rendered(for: .postgres).sql == "INSERT INTO t VALUES ($1, $2), ($3, $4), ($5, $6)")
    }

    @Test func placeholdersPastTheSpelledOnesAreNumberedTheSameWay() {
        let rows: [SQLQuery] = (1...100).map { "\($0)" }
        let query: SQLQuery = "SELECT id FROM t WHERE id IN (\(SQLQuery.joined(rows, separator: ",")))"
        let sqlite = query.rendered(for: .sqlite)
        #expect(
            sqlite.sql == "SELECT id FROM t WHERE id IN (" + (1...100).map { "?\($0)" }.joined(separator: ",") + ")")
        #expect(sqlite.bindings == (1...100).map { .integer(Int64($0)) })
        #expect(
            query.rendered(for: .postgres).sql
                == "SELECT id FROM t WHERE id IN (" + (1...100).map { "$\($0)" }.joined(separator: ",") + ")")
        #expect(SQLDialect.sqlite.placeholder(64) == "?64" && SQLDialect.postgres.placeholder(65) == "$65")
    }

    @Test func textOfEveryKindIsWrittenWhole() {
        // A literal with characters beyond ASCII, a fragment built at run time (long, on the heap),
        // a short one (stored inline), and placeholders of one to four digits.
        let built = String(repeating: "x = x AND ", count: 40) + "1 = 1"
        let rows: [SQLQuery] = (1...1_100).map { "\($0)" }
        let query: SQLQuery = """
            SELECT 'café ☕️' AS name, \(SQLQuery(unsafeSQL: "'é'")) FROM t \
            WHERE \(SQLQuery(unsafeSQL: built)) AND id IN (\(SQLQuery.joined(rows, separator: ",")))
            """
        let expected =
            "SELECT 'café ☕️' AS name, 'é' FROM t WHERE " + built + " AND id IN ("
            + (1...1_100).map { "?\($0)" }.joined(separator: ",") + ")"
        let sqlite = query.rendered(for: .sqlite)
        #expect(sqlite.sql == expected)
        #expect(Array(sqlite.sql.utf8) == Array(expected.utf8))
        #expect(sqlite.bindings.count == 1_100)
        #expect(query.rendered(for: .postgres).sql == String(expected.map { $0 == "?" ? "$" : $0 }))
    }

    @Test func descriptionNeverShowsBoundValues() {
        let secret = "correct horse battery staple"
        let query: SQLQuery = "SELECT 1 WHERE password = \(secret)"
        #expect(!query.description.contains(secret))
        #expect(!SQLValue.text(secret).description.contains(secret))
    }
}

@Suite struct SQLRowTests {
    let row = SQLRow(
        columns: ["id", "title", "note", "active", "hash"],
        values: [.integer(42), .text("Cap"), .null, .integer(1), .blob([0xAB])])

    @Test func decodesColumnsByName() throws {
        #expect(try row.decode("id", as: Int64.self) == 42)
        #expect(try row.decode("title", as: String.self) == "Cap")
        #expect(try row.decode("note", as: String?.self) == nil)
        #expect(try row.decode("active", as: Bool.self))
        #expect(try row.decode("hash", as: [UInt8].self) == [0xAB])
    }

    @Test func wrongTypesAndMissingColumnsAreDecodingErrors() {
        #expect(throws: DatabaseError.self) { try row.decode("title", as: Int64.self) }
        #expect(throws: DatabaseError.self) { try row.decode("nope", as: String.self) }
        #expect(throws: DatabaseError.self) { try row.decode("note", as: String.self) }
        #expect(throws: DatabaseError.self) { try row.decode("id", as: Bool.self) }
    }

    @Test func transientKinds() {
        #expect(DatabaseError(kind: .busy, code: "SQLITE_BUSY (5)", message: "database is locked").isTransient)
        #expect(DatabaseError(kind: .serializationFailure, code: "40001", message: "").isTransient)
        #expect(DatabaseError(kind: .deadlock, code: "40P01", message: "").isTransient)
        #expect(!DatabaseError(kind: .uniqueViolation, code: "23505", message: "").isTransient)
    }
}

@Suite struct StatementTextTests {
    @Test func textsThatHashAlikeAreStillTold() {
        // The same length, start, end and sampled words; a byte between them differs.
        let base = Array(repeating: UInt8(ascii: "a"), count: 200)
        var other = base
        other[50] = UInt8(ascii: "b")
        let first = StatementText(String(decoding: base, as: UTF8.self))
        let second = StatementText(String(decoding: other, as: UTF8.self))
        #expect(first.hashValue == second.hashValue)
        #expect(first != second)
        let cache = [first: 1, second: 2]
        #expect(cache[first] == 1 && cache[second] == 2)
    }

    @Test func equalTextsAreOneKeyWhateverTheirLength() {
        for length in [0, 1, 7, 8, 9, 23, 24, 25, 1_000] {
            let text = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            let built = String(decoding: Array(text.utf8), as: UTF8.self)
            #expect(StatementText(text) == StatementText(built))
            #expect(StatementText(text).hashValue == StatementText(built).hashValue)
            if length > 0 {
                #expect(StatementText(text) != StatementText(String(text.dropLast()) + "é"))
            }
        }
    }
}

@Suite struct SQLShapeTests {
    private static func lookup(id: Int64, name: String?) -> SQLQuery {
        "SELECT id FROM items WHERE id = \(id) AND name = \(name)"
    }

    @Test func queriesFromOnePlaceShareAShapeWhateverTheirValues() {
        let first = Self.lookup(id: 1, name: "one")
        let second = Self.lookup(id: 2, name: nil)
        #expect(first.shape == second.shape)
        #expect(first.shape.hashValue == second.shape.hashValue)
        #expect(first.shape.withoutValues == second.shape)
        #expect(first.rendered(for: .sqlite).sql == second.rendered(for: .sqlite).sql)
        #expect(second.bindings == [.integer(2), .null])
    }

    @Test func anyDifferenceInTheTextOrThePlaceholdersIsAnotherShape() {
        let base: SQLQuery = "SELECT id FROM items WHERE id = \(1)"
        let otherText: SQLQuery = "SELECT id FROM items WHERE id > \(1)"
        let textInstead: SQLQuery = "SELECT id FROM items WHERE id = \(unsafeSQL: "1")"
        let oneMore: SQLQuery = "SELECT id FROM items WHERE id = \(1)\(SQLQuery(" OR id = \(2)"))"
        let twoIDs = (1...2).map { id -> SQLQuery in "\(Int64(id))" }
        let threeIDs = (1...3).map { id -> SQLQuery in "\(Int64(id))" }
        let inTwo: SQLQuery = "SELECT id FROM items WHERE id IN (\(SQLQuery.joined(twoIDs, separator: ",")))"
        let inThree: SQLQuery = "SELECT id FROM items WHERE id IN (\(SQLQuery.joined(threeIDs, separator: ",")))"
        let shapes = [base, otherText, textInstead, oneMore, inTwo, inThree].map(\.shape)
        for (index, shape) in shapes.enumerated() {
            for (other, otherShape) in shapes.enumerated() where other != index {
                #expect(shape != otherShape, "\(index) and \(other)")
            }
        }
        #expect(Set(shapes).count == shapes.count)
        // Texts of the same lengths hash alike; `==` still tells them apart, so a statement cache
        // keyed by shape never hands out another statement.
        #expect(base.shape.hashValue == otherText.shape.hashValue)
        let cache = [base.shape: 1, otherText.shape: 2]
        #expect(cache[base.shape] == 1 && cache[otherText.shape] == 2)
    }
}
