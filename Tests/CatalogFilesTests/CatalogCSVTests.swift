import CatalogFiles
import CheckoutKit
import Testing

/// The catalog's CSV: every reading rule with a worked file, writing, and write-then-read.
@Suite struct CatalogCSVTests {
    static let header = "sku,title,description,category,price,stock,active\n"
    /// What a record with a field too many is told, after the counts.
    static let commaHint = ": a value with a comma in it needs quotes around it, and a price is written like 12.50"

    static func read(_ text: String, currency: Currency = .eur) -> CatalogCSVReading {
        read(bytes: Array(text.utf8), currency: currency)
    }

    /// The reading of `bytes` with each problem's line and message (its column is checked apart,
    /// in ``columns()``).
    static func read(bytes: [UInt8], currency: Currency = .eur) -> CatalogCSVReading {
        var reading = CatalogCSV.read(bytes, currency: currency)
        reading.problems = reading.problems.map { CatalogFileProblem(line: $0.line, message: $0.message) }
        return reading
    }

    static func problems(_ text: String, currency: Currency = .eur) -> [CatalogFileProblem] {
        read(text, currency: currency).problems
    }

    /// The problems of a file with the header and `rows`, the first row on line 2.
    static func rowProblems(_ rows: String, currency: Currency = .eur) -> [CatalogFileProblem] {
        problems(header + rows, currency: currency)
    }

    static func problem(_ line: Int?, _ message: String) -> CatalogFileProblem {
        CatalogFileProblem(line: line, message: message)
    }

    static func euros(_ minorUnits: Int64) -> Money {
        Money(minorUnits: minorUnits, currency: .eur)
    }

    static func row(
        _ sku: String, title: String = "Bottle", description: String = "", category: String = "Kitchen",
        price: Money = euros(1250), stock: Int = 3, active: Bool = true
    ) -> CatalogRow {
        CatalogRow(
            sku: sku, title: title, description: description, category: category, price: price, stock: stock,
            active: active)
    }

    // MARK: Records and lines

    @Test("a plain file: every row with the line it starts on")
    func plainFile() {
        let reading = Self.read(
            Self.header + "BOTTLE-750,Steel bottle,Keeps water cold,Kitchen,12.50,7,true\n"
                + "mug_2.b,Mug,,Kitchen,4,0,no\n")
        #expect(reading.problems == [])
        #expect(reading.isValid)
        #expect(
            reading.rows == [
                CatalogCSVReading.Numbered(
                    line: 2,
                    row: Self.row(
                        "BOTTLE-750", title: "Steel bottle", description: "Keeps water cold", price: Self.euros(1250),
                        stock: 7)),
                CatalogCSVReading.Numbered(
                    line: 3, row: Self.row("mug_2.b", title: "Mug", price: Self.euros(400), stock: 0, active: false)),
            ])
    }

    @Test("CRLF line ends, and no line end after the last record")
    func crlfAndNoFinalLineEnd() {
        let reading = Self.read(
            "sku,title,description,category,price,stock,active\r\nA-1,One,,Tools,1.00,1,true\r\nA-2,Two,,Tools,2.00,2,false"
        )
        #expect(reading.problems == [])
        #expect(reading.rows.map(\.line) == [2, 3])
        #expect(reading.rows.map(\.row.sku) == ["A-1", "A-2"])
        #expect(reading.rows.map(\.row.active) == [true, false])
    }

    @Test("quoted fields hold commas, doubled quotes and line breaks; lines count physical lines")
    func quotedFields() {
        let text =
            Self.header
            + "A-1,\"Bottle, steel\",\"The \"\"best\"\" one\r\nsecond line\nthird line\",Kitchen,1.00,1,true\n"
            + "A-2,\"Mug\",\"\",\"Kitchen\",\"2.00\",\"2\",\"yes\"\n"
        let reading = Self.read(text)
        #expect(reading.problems == [])
        #expect(reading.rows.map(\.line) == [2, 5])
        #expect(reading.rows.first?.row.title == "Bottle, steel")
        #expect(reading.rows.first?.row.description == "The \"best\" one\nsecond line\nthird line")
        #expect(reading.rows.last?.row == Self.row("A-2", title: "Mug", price: Self.euros(200), stock: 2))
    }

    @Test("a bare CR inside an unquoted field is a character, not a line end")
    func bareCarriageReturn() {
        let reading = Self.read(Self.header + "A-1,Bot\rtle,,Kitchen,1.00,1,true\nA-2,Mug,,Kitchen,1.00,1,true\n")
        #expect(reading.problems == [Self.problem(2, "title holds a line break or another control character")])
        #expect(reading.rows.map(\.line) == [3])
    }

    @Test("a quote inside an unquoted field is a problem on the record's line")
    func quoteInsideUnquotedField() {
        #expect(
            Self.rowProblems("A-1,Bottle,A 5\" screen,Kitchen,1.00,1,true\n") == [
                Self.problem(
                    2,
                    "the description field has a quote mark (\") but does not start with one; "
                        + "put the whole field in quotes and double each quote mark in it")
            ])
    }

    @Test("text after a closing quote is a problem on the record's line")
    func textAfterClosingQuote() {
        #expect(
            Self.rowProblems("A-1,Bottle,,Kitchen,1.00,1,true\nA-2,\"Mug\"gy,,Kitchen,1.00,1,true\n") == [
                Self.problem(3, "the title field has text after its closing quote mark")
            ])
    }

    @Test("an unterminated quote is a problem on the line where its record starts")
    func unterminatedQuote() {
        let reading = Self.read(
            Self.header + "A-1,Bottle,,Kitchen,1.00,1,true\nA-2,Mug,\"never closed\nA-3,Cup,,Kitchen,1.00,1,true\n")
        #expect(reading.problems == [Self.problem(3, "the description field opens a quote mark that is never closed")])
        #expect(reading.rows.map(\.line) == [2])
    }

    @Test("spaces around a quoted field are allowed")
    func spacesAroundQuotes() {
        let reading = Self.read(Self.header + "A-1, \"Bottle, steel\" ,,Kitchen,1.00,1,true\n")
        #expect(reading.problems == [])
        #expect(reading.rows.first?.row.title == "Bottle, steel")
    }

    @Test("a UTF-8 byte-order mark at the start is skipped")
    func byteOrderMark() {
        let reading = Self.read(
            bytes: [0xEF, 0xBB, 0xBF] + Array((Self.header + "A-1,Crème brûlée set,,Küche,1.00,1,true\n").utf8),
            currency: .eur)
        #expect(reading.problems == [])
        #expect(reading.rows.first?.row.title == "Crème brûlée set")
        #expect(reading.rows.first?.row.category == "Küche")
    }

    @Test("bytes that are not UTF-8: a problem on their line, nothing else read from that record")
    func notUTF8() {
        // Line 3 is Latin-1 ("Crème", with a stray 0xE8) and has a bad price too: only the encoding is reported.
        let bytes =
            Array((Self.header + "A-1,Bottle,,Kitchen,1.00,1,true\n").utf8)
            + Array("A-2,Cr".utf8) + [0xE8] + Array("me,,Kitchen,12;50,1,true\n".utf8)
            + Array("A-3,Mug,\"first\nsecond ".utf8) + [0xFF] + Array("\",Kitchen,1.00,1,true\n".utf8)
            + Array("A-4,Cup,,Kitchen,1.00,1,true\n".utf8)
        let reading = Self.read(bytes: bytes, currency: .eur)
        #expect(
            reading.problems == [
                Self.problem(3, "this line is not UTF-8 text; save the file as CSV UTF-8"),
                Self.problem(5, "this line is not UTF-8 text; save the file as CSV UTF-8"),
            ])
        #expect(reading.rows.map(\.line) == [2, 6])
    }

    @Test("overlong forms, surrogates and cut sequences are not UTF-8")
    func malformedUTF8() {
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]] {
            let bytes = Array((Self.header + "A-1,Bo").utf8) + bad + Array("ttle,,Kitchen,1.00,1,true\n".utf8)
            #expect(
                Self.read(bytes: bytes, currency: .eur).problems == [
                    Self.problem(2, "this line is not UTF-8 text; save the file as CSV UTF-8")
                ], "\(bad)")
        }
    }

    // MARK: The file as a whole

    @Test("an empty file: no bytes, only a byte-order mark, or only white space")
    func emptyFile() {
        let empty = [Self.problem(nil, "The file is empty: it needs a header row and at least one product.")]
        #expect(Self.read(bytes: [], currency: .eur).problems == empty)
        #expect(Self.read(bytes: [0xEF, 0xBB, 0xBF], currency: .eur).problems == empty)
        #expect(Self.problems(" \r\n\t\n\n") == empty)
    }

    @Test("a header with no rows under it")
    func headerOnly() {
        #expect(Self.problems(Self.header) == [Self.problem(nil, "The file has no products under its header.")])
        #expect(
            Self.problems(Self.header + "\n\n") == [Self.problem(nil, "The file has no products under its header.")])
    }

    @Test("a file over 8 MiB: one problem and nothing read")
    func tooManyBytes() {
        // Spaces after the last field, which reading trims.
        var bytes = Array((Self.header + "A-1,Bottle,,Kitchen,1.00,1,true").utf8)
        bytes += [UInt8](repeating: UInt8(ascii: " "), count: CatalogCSV.maximumBytes + 1 - bytes.count)
        #expect(bytes.count == 8 * 1024 * 1024 + 1)
        let reading = Self.read(bytes: bytes, currency: .eur)
        #expect(reading.rows == [])
        #expect(
            reading.problems == [
                Self.problem(
                    nil, "The file is larger than 8 MB: split it into smaller files of at most 10,000 products each.")
            ])
        // Exactly 8 MiB is read.
        bytes.removeLast()
        #expect(Self.read(bytes: bytes, currency: .eur).problems == [])
    }

    @Test("more than 10,000 products: one problem and nothing read")
    func tooManyRows() {
        var text = Self.header
        for index in 0..<10_001 { text += "SKU-\(index),Bottle,,Kitchen,1.00,1,true\n" }
        let reading = Self.read(text)
        #expect(reading.rows == [])
        #expect(
            reading.problems == [
                Self.problem(nil, "The file has 10,001 product rows: at most 10,000 products per file.")
            ])
    }

    @Test("the limits are the documented ones")
    func limits() {
        #expect(CatalogCSV.columns == ["sku", "title", "description", "category", "price", "stock", "active"])
        #expect(CatalogCSV.maximumBytes == 8_388_608)
        #expect(CatalogCSV.maximumRows == 10_000)
        #expect(CatalogCSV.maximumProblemsReported == 100)
    }

    // MARK: The header

    @Test("header names are trimmed, case-insensitive and in any order")
    func headerInAnyOrder() {
        let reading = Self.read(
            " Active ,PRICE,Sku,\tTitle,category,Stock,DESCRIPTION\nfalse,3.99,A-1,Mug,Kitchen,4,Blue\n")
        #expect(reading.problems == [])
        #expect(
            reading.rows == [
                CatalogCSVReading.Numbered(
                    line: 2,
                    row: Self.row(
                        "A-1", title: "Mug", description: "Blue", price: Self.euros(399), stock: 4, active: false))
            ])
    }

    @Test("a missing column: a problem on line 1 and no rows read")
    func missingColumn() {
        let reading = Self.read("sku,title,description,category,stock,active\nA-1,Mug,,Kitchen,4,true\n")
        #expect(reading.problems == [Self.problem(1, "missing column \"price\"")])
        #expect(reading.rows == [])
    }

    @Test("an unknown column is named, cut to 40 characters")
    func unknownColumn() {
        let long = String(repeating: "x", count: 45)
        let reading = Self.read(
            "sku,title,description,colour,category,price,stock,active,\(long),\nA-1,Mug,,Red,Kitchen,1.00,4,true,,\n")
        #expect(
            reading.problems == [
                Self.problem(1, "unknown column \"colour\""),
                Self.problem(1, "unknown column \"\(String(repeating: "x", count: 40))…\""),
                Self.problem(1, "column 10 has no name"),
            ])
        #expect(reading.rows == [])
    }

    @Test("a repeated column: a problem on line 1 and no rows read")
    func repeatedColumn() {
        let reading = Self.read(
            "sku,title,description,category,price,stock,active,Price\nA-1,Mug,,Kitchen,1.00,4,true,2.00\n")
        #expect(reading.problems == [Self.problem(1, "column \"price\" appears more than once")])
        #expect(reading.rows == [])
    }

    @Test("a header that is not UTF-8 or has a broken quote: no rows read")
    func unreadableHeader() {
        let bytes = Array("sku,ti".utf8) + [0xE9] + Array("tle,description,category,price,stock,active\n".utf8)
        #expect(
            Self.read(bytes: bytes + Array("A-1,Mug,,Kitchen,1.00,4,true\n".utf8), currency: .eur).problems == [
                Self.problem(1, "this line is not UTF-8 text; save the file as CSV UTF-8")
            ])
        #expect(
            Self.problems("sku,\"title,description,category,price,stock,active\n") == [
                Self.problem(1, "column 2 opens a quote mark that is never closed")
            ])
    }

    // MARK: Records

    @Test("blank lines are skipped, and lines still count")
    func blankLines() {
        let reading = Self.read(
            "\n" + Self.header + "\nA-1,Mug,,Kitchen,1.00,4,true\n\r\n  \t \n\nA-2,Cup,,Kitchen,1.00,4,true\n\n")
        #expect(reading.problems == [])
        #expect(reading.rows.map(\.line) == [4, 8])
    }

    @Test("a record with another number of fields than the header")
    func fieldCount() {
        #expect(
            Self.rowProblems("A-1,Mug,,Kitchen,1.00\nA-2,Cup,,Kitchen,1.00,4,true,extra\n,,,,,,\n") == [
                Self.problem(2, "expected 7 fields, found 5"),
                Self.problem(3, "expected 7 fields, found 8\(Self.commaHint)"),
                Self.problem(4, "SKU is empty"),
                Self.problem(4, "title is empty"),
                Self.problem(4, "category is empty"),
                Self.problem(4, "price is empty"),
                Self.problem(4, "stock is empty"),
                Self.problem(4, "active is empty"),
            ])
    }

    @Test("fields are trimmed of spaces and tabs; a description keeps its inner line breaks")
    func trimming() {
        let reading = Self.read(
            Self.header + "  A-1\t, Steel  bottle ,\" \tline one\n  line two\t \",\tKitchen , 12.50 , 7 , TRUE \n")
        #expect(reading.problems == [])
        #expect(
            reading.rows.first?.row
                == Self.row(
                    "A-1", title: "Steel  bottle", description: "line one\n  line two", price: Self.euros(1250),
                    stock: 7))
    }

    // MARK: Fields

    @Test("SKU: 1–64 ASCII letters, digits, -, _ and .")
    func skuRules() {
        let longest = String(repeating: "A", count: 64)
        let tooLong = String(repeating: "B", count: 65)
        let problems = Self.rowProblems(
            """
            \(longest),Mug,,Kitchen,1.00,1,true
            AB C,Mug,,Kitchen,1.00,1,true
            CAFÉ-1,Mug,,Kitchen,1.00,1,true
            \(tooLong),Mug,,Kitchen,1.00,1,true
            abc-1,Mug,,Kitchen,1.00,1,true
            ABC-1,Mug,,Kitchen,1.00,1,true
            ,Mug,,Kitchen,1.00,1,true
            \(tooLong)!,Mug,,Kitchen,1.00,1,true

            """)
        let allowed = "may only hold the letters A–Z and a–z, digits, \"-\", \"_\" and \".\""
        #expect(
            problems == [
                Self.problem(3, "SKU \"AB C\" \(allowed)"),
                Self.problem(4, "SKU \"CAFÉ-1\" \(allowed)"),
                Self.problem(5, "SKU is longer than 64 characters"),
                Self.problem(8, "SKU is empty"),
                Self.problem(9, "SKU is longer than 64 characters"),
                Self.problem(9, "SKU \"\(String(repeating: "B", count: 40))…\" \(allowed)"),
            ])
    }

    @Test("title: 1–200 characters, no control characters")
    func titleRules() {
        let longest = String(repeating: "é", count: 200)
        let reading = Self.read(
            Self.header
                + """
                A-1,\(longest),,Kitchen,1.00,1,true
                A-2,\(longest)x,,Kitchen,1.00,1,true
                A-3,"Two\nlines",,Kitchen,1.00,1,true
                A-4,Tab\there,,Kitchen,1.00,1,true
                A-5,   ,,Kitchen,1.00,1,true

                """)
        #expect(
            reading.problems == [
                Self.problem(3, "title is longer than 200 characters"),
                Self.problem(4, "title holds a line break or another control character"),
                Self.problem(6, "title holds a line break or another control character"),
                Self.problem(7, "title is empty"),
            ])
        #expect(reading.rows.map(\.line) == [2])
        #expect(reading.rows.first?.row.title == longest)
    }

    @Test("description: at most 5,000 characters, line feeds but no other control characters")
    func descriptionRules() {
        let longest = String(repeating: "d", count: 5_000)
        let reading = Self.read(
            Self.header
                + """
                A-1,Mug,\(longest),Kitchen,1.00,1,true
                A-2,Mug,\(longest)d,Kitchen,1.00,1,true
                A-3,Mug,"one\r\ntwo",Kitchen,1.00,1,true
                A-4,Mug,with\ttab,Kitchen,1.00,1,true
                A-5,Mug,"bell\u{7}",Kitchen,1.00,1,true

                """)
        #expect(
            reading.problems == [
                Self.problem(3, "description is longer than 5,000 characters"),
                Self.problem(6, "description holds a control character other than a line break"),
                Self.problem(7, "description holds a control character other than a line break"),
            ])
        #expect(reading.rows.map(\.row.description) == [longest, "one\ntwo"])
    }

    @Test("category: 1–60 characters, no control characters")
    func categoryRules() {
        let longest = String(repeating: "c", count: 60)
        #expect(
            Self.rowProblems(
                """
                A-1,Mug,,\(longest),1.00,1,true
                A-2,Mug,,\(longest)c,1.00,1,true
                A-3,Mug,,,1.00,1,true
                A-4,Mug,,"Home\nGarden",1.00,1,true

                """) == [
                    Self.problem(3, "category is longer than 60 characters"),
                    Self.problem(4, "category is empty"),
                    Self.problem(5, "category holds a line break or another control character"),
                ])
    }

    @Test("price: an amount in the shop's currency, above zero")
    func priceRules() {
        let reading = Self.read(
            Self.header
                + """
                A-1,Mug,,Kitchen,12,50,1,true
                A-2,Mug,,Kitchen,"12,50",1,true
                A-3,Mug,,Kitchen,-5.00,1,true
                A-4,Mug,,Kitchen,0.00,1,true
                A-5,Mug,,Kitchen,1e3,1,true
                A-6,Mug,,Kitchen,4.495,1,true
                A-7,Mug,,Kitchen,€12.50,1,true
                A-8,Mug,,Kitchen,99999999999999,1,true
                A-9,Mug,,Kitchen,12.5,1,true
                A-10,Mug,,Kitchen,0.01,1,true

                """)
        #expect(
            reading.problems == [
                Self.problem(2, "expected 7 fields, found 8\(Self.commaHint)"),
                Self.problem(3, "price \"12,50\" is not an amount like 12.50"),
                Self.problem(4, "price must be above zero"),
                Self.problem(5, "price must be above zero"),
                Self.problem(6, "price \"1e3\" is not an amount like 12.50"),
                Self.problem(7, "price \"4.495\" is not an amount like 12.50"),
                Self.problem(8, "price \"€12.50\" is not an amount like 12.50"),
                Self.problem(9, "price \"99999999999999\" is too large"),
            ])
        #expect(reading.rows.map(\.row.price) == [Self.euros(1250), Self.euros(1)])
    }

    @Test("price in a currency without or with three minor digits")
    func priceInOtherCurrencies() {
        let file = Self.header + "A-1,Mug,,Kitchen,12.50,1,true\nA-2,Mug,,Kitchen,1250,1,true\n"
        let yen = Self.read(file, currency: .jpy)
        #expect(yen.problems == [Self.problem(2, "price \"12.50\" is not an amount like 1250")])
        #expect(yen.rows.map(\.row.price) == [Money(minorUnits: 1250, currency: .jpy)])
        let dinars = Self.read(file + "A-3,Mug,,Kitchen,1.2345,1,true\n", currency: .kwd)
        #expect(dinars.problems == [Self.problem(4, "price \"1.2345\" is not an amount like 12.500")])
        #expect(
            dinars.rows.map(\.row.price) == [
                Money(minorUnits: 12_500, currency: .kwd), Money(minorUnits: 1_250_000, currency: .kwd),
            ])
    }

    @Test("stock: a whole number from 0 to 1,000,000 in ASCII digits")
    func stockRules() {
        let reading = Self.read(
            Self.header
                + """
                A-1,Mug,,Kitchen,1.00,0,true
                A-2,Mug,,Kitchen,1.00,1000000,true
                A-3,Mug,,Kitchen,1.00,-3,true
                A-4,Mug,,Kitchen,1.00,2.5,true
                A-5,Mug,,Kitchen,1.00,ten,true
                A-6,Mug,,Kitchen,1.00,1000001,true
                A-7,Mug,,Kitchen,1.00,٣,true
                A-8,Mug,,Kitchen,1.00,99999999999999999999999,true
                A-9,Mug,,Kitchen,1.00,007,true

                """)
        let range = "is not a whole number from 0 to 1,000,000"
        #expect(
            reading.problems == [
                Self.problem(4, "stock \"-3\" \(range)"),
                Self.problem(5, "stock \"2.5\" \(range)"),
                Self.problem(6, "stock \"ten\" \(range)"),
                Self.problem(7, "stock \"1000001\" \(range)"),
                Self.problem(8, "stock \"٣\" \(range)"),
                Self.problem(9, "stock \"99999999999999999999999\" \(range)"),
            ])
        #expect(reading.rows.map(\.row.stock) == [0, 1_000_000, 7])
    }

    @Test("active: true, false, yes, no, 1 or 0, in any case")
    func activeRules() {
        let values = ["true", "FALSE", "Yes", "nO", "1", "0", "maybe", "on"]
        let text = values.enumerated().map { "A-\($0.offset),Mug,,Kitchen,1.00,1,\($0.element)\n" }.joined()
        let reading = Self.read(Self.header + text)
        #expect(reading.rows.map(\.row.active) == [true, false, true, false, true, false])
        let oneOf = "is not one of true, false, yes, no, 1 or 0"
        #expect(
            reading.problems == [
                Self.problem(8, "active \"maybe\" \(oneOf)"), Self.problem(9, "active \"on\" \(oneOf)"),
            ])
    }

    @Test("a repeated SKU: a problem on the later line; SKUs compare case-sensitively")
    func repeatedSKU() {
        let reading = Self.read(
            Self.header
                + """
                X-1,Mug,,Kitchen,1.00,1,true
                X-2,Mug,,Kitchen,1.00,1,true
                ABC-1,Mug,,Kitchen,1.00,1,true
                abc-1,Mug,,Kitchen,1.00,1,true
                ABC-1,Cup,,Kitchen,oops,1,true
                ABC-1,Bowl,,Kitchen,1.00,1,true

                """)
        #expect(
            reading.problems == [
                Self.problem(6, "SKU \"ABC-1\" is also on line 4"),
                Self.problem(6, "price \"oops\" is not an amount like 12.50"),
                Self.problem(7, "SKU \"ABC-1\" is also on line 4"),
            ])
        #expect(reading.rows.map(\.row.sku) == ["X-1", "X-2", "ABC-1", "abc-1"])
    }

    @Test("a card number in any field is refused and never repeated")
    func cardNumbers() {
        let reading = Self.read(
            Self.header
                + """
                A-1,Gift for 4242 4242 4242 4242,,Kitchen,1.00,1,true
                A-2,Mug,"card: 4111-1111-1111-1111",Kitchen,1.00,1,true
                A-3,Mug,,Kitchen,4242424242424242,1,true
                4242424242424242,Mug,,Kitchen,1.00,378282246310005,true

                """)
        #expect(
            reading.problems == [
                Self.problem(2, "the title holds what looks like a card number; the shop never stores card numbers"),
                Self.problem(
                    3, "the description holds what looks like a card number; the shop never stores card numbers"),
                Self.problem(4, "the price holds what looks like a card number; the shop never stores card numbers"),
                Self.problem(5, "the SKU holds what looks like a card number; the shop never stores card numbers"),
                Self.problem(5, "the stock holds what looks like a card number; the shop never stores card numbers"),
            ])
        for problem in reading.problems {
            #expect(!CardNumberDetector.containsCardNumber(problem.message))
        }
    }

    @Test("a value cut to 40 characters is not shown when the cut part looks like a card number")
    func cutValueLikeACardNumber() {
        // 23 digits are no card number; their first 16 (cut at 40 characters) are a Luhn-valid Visa number.
        let price = String(repeating: "x", count: 24) + "4242424242424242" + "1234567"
        #expect(!CardNumberDetector.containsCardNumber(price))
        #expect(
            Self.rowProblems("A-1,Mug,,Kitchen,\(price),1,true\n") == [
                Self.problem(2, "price is not an amount like 12.50")
            ])
    }

    @Test("echoed values are cut to 40 characters with …, control characters shown as �")
    func echoedValues() {
        let long = String(repeating: "p", count: 41)
        #expect(
            Self.rowProblems("A-1,Mug,,Kitchen,\(long),1,\"ma\nybe\"\n") == [
                Self.problem(2, "price \"\(String(repeating: "p", count: 40))…\" is not an amount like 12.50"),
                Self.problem(2, "active \"ma\u{FFFD}ybe\" is not one of true, false, yes, no, 1 or 0"),
            ])
    }

    @Test("every problem of a line is its own problem")
    func severalProblemsOnALine() {
        #expect(
            Self.rowProblems("A 1,,,,12;50,-3,maybe\n") == [
                Self.problem(2, "SKU \"A 1\" may only hold the letters A–Z and a–z, digits, \"-\", \"_\" and \".\""),
                Self.problem(2, "title is empty"),
                Self.problem(2, "category is empty"),
                Self.problem(2, "price \"12;50\" is not an amount like 12.50"),
                Self.problem(2, "stock \"-3\" is not a whole number from 0 to 1,000,000"),
                Self.problem(2, "active \"maybe\" is not one of true, false, yes, no, 1 or 0"),
            ])
    }

    @Test("each problem names its column when it is one field's or one header name's")
    func columns() {
        let header = CatalogCSV.read(
            Array("sku,title,description,colour,price,stock,active,price\n".utf8), currency: .eur)
        #expect(header.problems.map(\.column) == [nil, "price", "category"])
        let rows = CatalogCSV.read(
            Array(
                (Self.header
                    + "A 1,,,Kitchen,12;50,-3,true\nA-2,Mug,x\"y,Kitchen,1.00,1,true\nA-3,Mug,,Kitchen,1.00\n"
                    + "A-4,Mug,,Kitchen,1.00,1,true\nA-4,Cup,,Kitchen,1.00,1,true\n").utf8),
            currency: .eur)
        #expect(
            rows.problems.map { [$0.line.map(String.init) ?? "-", $0.column ?? "-"] } == [
                ["2", "sku"], ["2", "title"], ["2", "price"], ["2", "stock"], ["3", "description"], ["4", "-"],
                ["6", "sku"],
            ])
    }

    @Test("values are what the product rules keep: trimmed of every kind of white space, as a form's fields")
    func valuesAsTheProductRulesKeepThem() {
        let reading = Self.read(
            Self.header + "A-1,\u{A0}Mug\u{A0},\"\n\nBlue, tall\n\",\u{2003}Kitchen,1.00,1,true\n")
        #expect(reading.problems == [])
        let row = try? #require(reading.rows.first?.row)
        let details = try? ProductRules.details(
            sku: " A-1 ", title: "\u{A0}Mug\u{A0}", description: "\n\nBlue, tall\n", category: "\u{2003}Kitchen",
            priceText: "1.00", active: true, currency: .eur
        ).get()
        #expect(row?.title == "Mug")
        #expect(row?.description == "Blue, tall")
        #expect(row?.category == "Kitchen")
        #expect(
            row.map {
                ProductDetails(
                    sku: $0.sku, title: $0.title, description: $0.description, category: $0.category, price: $0.price,
                    active: $0.active)
            } == details)
        // A value that is nothing but white space is empty.
        #expect(
            Self.rowProblems("A-1,\u{A0},,Kitchen,1.00,1,true\n") == [Self.problem(2, "title is empty")])
    }

    @Test("at most 100 problems are listed, then one counts the rest")
    func problemLimit() {
        var text = Self.header
        for index in 0..<130 { text += "A-\(index),Mug,,Kitchen,free,1,true\n" }
        let problems = Self.problems(text)
        #expect(problems.count == 101)
        #expect(problems.first == Self.problem(2, "price \"free\" is not an amount like 12.50"))
        #expect(problems[99] == Self.problem(101, "price \"free\" is not an amount like 12.50"))
        #expect(problems.last == Self.problem(nil, "… and 30 more problems."))

        var oneMore = Self.header
        for index in 0..<101 { oneMore += "A-\(index),Mug,,Kitchen,free,1,true\n" }
        #expect(Self.problems(oneMore).last == Self.problem(nil, "… and 1 more problem."))
    }

    @Test("a problem reads as one sentence")
    func sentences() {
        #expect(
            Self.problem(7, "price \"12,50\" is not an amount like 12.50").sentence
                == "Line 7: price \"12,50\" is not an amount like 12.50.")
        #expect(
            Self.problem(nil, "The file has no products under its header.").sentence
                == "The file has no products under its header.")
    }

    // MARK: Formulas

    @Test("a text field that starts like a formula is written after a ' and read back without it")
    func formulaInjection() {
        let rows = [
            Self.row("-A1", title: "=HYPERLINK(\"http://x\")", description: "+1 extra", category: "@home"),
            Self.row("B-2", title: "'quoted", description: "'=already", category: "Kitchen"),
        ]
        let written = String(decoding: CatalogCSV.write(rows).dropFirst(3), as: UTF8.self)
        #expect(
            written == "sku,title,description,category,price,stock,active\r\n"
                + "'-A1,\"'=HYPERLINK(\"\"http://x\"\")\",'+1 extra,'@home,12.50,3,true\r\n"
                + "B-2,''quoted,''=already,Kitchen,12.50,3,true\r\n")
        let reading = Self.read(bytes: CatalogCSV.write(rows), currency: .eur)
        #expect(reading.problems == [])
        #expect(reading.rows.map(\.row) == rows)
    }

    @Test("reading removes one ' only before a formula's first character")
    func formulaUnprotection() {
        let reading = Self.read(Self.header + "'-A1,'=SUM(A1),'hello,''@x,1.00,1,true\n")
        #expect(reading.problems == [])
        #expect(
            reading.rows.first?.row
                == Self.row(
                    "-A1", title: "=SUM(A1)", description: "'hello", category: "'@x", price: Self.euros(100), stock: 1))
    }

    // MARK: Writing

    @Test("writing: a byte-order mark, CRLF, quotes only where needed")
    func writing() {
        let rows = [
            Self.row(
                "A-1", title: "Bottle, steel", description: "The \"best\"\nbottle", category: "Küche",
                price: Self.euros(5), stock: 1_000_000, active: false),
            Self.row("A-2", title: "<script>alert(1)</script>", description: "", price: Self.euros(123_456)),
        ]
        let bytes = CatalogCSV.write(rows)
        #expect(Array(bytes.prefix(3)) == [0xEF, 0xBB, 0xBF])
        #expect(
            String(decoding: bytes.dropFirst(3), as: UTF8.self)
                == "sku,title,description,category,price,stock,active\r\n"
                + "A-1,\"Bottle, steel\",\"The \"\"best\"\"\nbottle\",Küche,0.05,1000000,false\r\n"
                + "A-2,<script>alert(1)</script>,,Kitchen,1234.56,3,true\r\n")
        #expect(
            CatalogCSV.write([]) == [0xEF, 0xBB, 0xBF]
                + Array("sku,title,description,category,price,stock,active\r\n".utf8))
    }

    @Test("prices are written with the currency's minor digits")
    func writingPrices() {
        let rows = [
            Self.row("A-1", price: Money(minorUnits: 1250, currency: .jpy)),
            Self.row("A-2", price: Money(minorUnits: 1005, currency: .kwd)),
        ]
        let text = String(decoding: CatalogCSV.write(rows), as: UTF8.self)
        #expect(text.hasSuffix("A-1,Bottle,,Kitchen,1250,3,true\r\nA-2,Bottle,,Kitchen,1.005,3,true\r\n"))
    }

    // MARK: Properties

    static let fragments = [
        "a", "Z", "7", " ", ",", "\"", "\"\"", "'", "=", "+", "-", "@", "<script>", "</script>", "é", "ß", "日本",
        "🙂", "\n", ";", "=1+2", "&amp;", "\\", "\u{301}", "x,y", "line\nbreak", "  ",
    ]
    static let skuCharacters = Array("ABCxyz0189-_.")

    static func randomText(
        _ generator: inout SplitMix64, maximumFragments: Int, allowLineBreaks: Bool, minimumLength: Int = 1
    ) -> String {
        var text = ""
        let count = Int.random(in: minimumLength...maximumFragments, using: &generator)
        for _ in 0..<count {
            guard let fragment = fragments.randomElement(using: &generator) else { continue }
            if !allowLineBreaks && fragment.contains("\n") { continue }
            text += fragment
        }
        // What reading keeps: no spaces or line breaks around it, as the product rules trim a field
        // (a space and a combining mark are one Character, so the trimming goes by scalars).
        var scalars = Array(text.unicodeScalars)
        while let first = scalars.first, first == " " || first == "\n" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\n" { scalars.removeLast() }
        text = String(String.UnicodeScalarView(scalars))
        return text.isEmpty && minimumLength > 0 ? "x" : text
    }

    static func randomRow(index: Int, currency: Currency, _ generator: inout SplitMix64) -> CatalogRow {
        var sku = String(
            (0..<Int.random(in: 0...10, using: &generator)).compactMap { _ in
                skuCharacters.randomElement(using: &generator)
            })
        sku += "-\(index)"
        if Bool.random(using: &generator) { sku = "-" + sku }
        return CatalogRow(
            sku: sku,
            title: randomText(&generator, maximumFragments: 12, allowLineBreaks: false),
            description: randomText(&generator, maximumFragments: 20, allowLineBreaks: true, minimumLength: 0),
            category: randomText(&generator, maximumFragments: 6, allowLineBreaks: false),
            price: Money(minorUnits: Int64.random(in: 1...10_000_000, using: &generator), currency: currency),
            stock: Int.random(in: 0...1_000_000, using: &generator),
            active: Bool.random(using: &generator))
    }

    @Test(
        "write then read gives back exactly the rows (seed 20261203)",
        arguments: [Currency.eur, .jpy, .kwd])
    func roundTrip(currency: Currency) {
        var generator = SplitMix64(seed: 20_261_203)
        for _ in 0..<20 {
            let rows = (0..<Int.random(in: 1...100, using: &generator)).map {
                Self.randomRow(index: $0, currency: currency, &generator)
            }
            let bytes = CatalogCSV.write(rows)
            let reading = Self.read(bytes: bytes, currency: currency)
            #expect(reading.problems == [])
            #expect(reading.rows.map(\.row) == rows)
            if reading.rows.map(\.row) != rows { return }
            #expect(CatalogCSV.write(reading.rows.map(\.row)) == bytes)
        }
    }

    /// The SKU of the first row read otherwise than written (a short failure message for a long file).
    static func firstDifference(_ reading: CatalogCSVReading, _ rows: [CatalogRow]) -> String {
        zip(reading.rows.map(\.row), rows).first { $0 != $1 }.map(\.1.sku) ?? "none"
    }

    @Test("10,000 products in about 5 MiB read in full")
    func tenThousandRows() {
        let description = Array(repeating: "A sturdy, handy thing; \"really\" good.", count: 13).joined(separator: "\n")
        let rows = (0..<10_000).map { index in
            CatalogRow(
                sku: "SKU-\(index)", title: "Product number \(index) — édition spéciale", description: description,
                category: "Category \(index % 37)", price: Money(minorUnits: Int64(100 + index), currency: .eur),
                stock: index % 1_000, active: index % 3 != 0)
        }
        let bytes = CatalogCSV.write(rows)
        #expect(bytes.count > 5_000_000)
        #expect(bytes.count < CatalogCSV.maximumBytes)
        let reading = Self.read(bytes: bytes, currency: .eur)
        #expect(reading.problems == [])
        #expect(reading.rows.count == 10_000)
        // Compared row by row, so that a failure names one row rather than printing 5 MiB.
        #expect(Self.firstDifference(reading, rows) == "none")
        // Each description spans 13 physical lines.
        #expect(reading.rows.last?.line == 2 + 9_999 * 13)
    }
}
