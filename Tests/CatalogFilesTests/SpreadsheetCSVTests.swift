import Testing

@testable import CatalogFiles

@Suite("Spreadsheet CSV: the one writer of the back office's files")
struct SpreadsheetCSVTests {
    @Test("what someone typed comes back exactly: protected, then unprotected")
    func protectionIsUndone() {
        let typed = [
            "", "plain", "=SUM(A1)", "+1", "-2", "@home", "\tTab", "\rCR", "'", "'quoted", "''=twice", "'=already",
            "a=b", "owner@onlinestore.test", "{\"a\":\"=b\"}", "É'", "🏻@",
        ]
        for text in typed {
            let written = SpreadsheetCSV.protected(text)
            #expect(SpreadsheetCSV.unprotected(written) == text, "\(text)")
            if let first = text.unicodeScalars.first, SpreadsheetCSV.formulaStarts.contains(first) {
                #expect(written == "'" + text)
            } else {
                #expect(written == text)
            }
        }
        // Nothing written starts like a formula: the `'` before it is not one to a spreadsheet.
        for text in typed {
            let first = SpreadsheetCSV.protected(text).unicodeScalars.first
            #expect(first.map { $0 == "'" || !SpreadsheetCSV.formulaStarts.contains($0) } ?? true)
        }
    }

    @Test("a record: text fields protected, values as they are, quotes only where needed, CRLF")
    func records() {
        var csv = SpreadsheetCSV(columns: ["id", "note", "amount"])
        csv.value("-5")
        csv.text("=cmd, \"run\"\nnow")
        csv.value("12.50")
        csv.endRecord()
        csv.value("6")
        csv.text("")
        csv.value("")
        csv.endRecord()
        #expect(Array(csv.bytes.prefix(3)) == SpreadsheetCSV.byteOrderMark)
        #expect(
            String(decoding: csv.bytes.dropFirst(3), as: UTF8.self)
                == "id,note,amount\r\n-5,\"'=cmd, \"\"run\"\"\nnow\",12.50\r\n6,,\r\n")
    }
}
