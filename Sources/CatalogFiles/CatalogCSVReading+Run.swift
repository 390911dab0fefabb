import CheckoutKit

/// One reading of a catalog file: the header, then every record, with the problems collected.
struct Reading {
    private var reader: CSVRecordReader
    private let badLines: [Int]
    private var nextBadLine = 0
    private let rules: RowRules
    private var problems = ProblemList()
    private var rows: [CatalogCSVReading.Numbered] = []
    /// Where each SKU was first read, to find one that is repeated.
    private var skuLines: [String: Int] = [:]

    init(bytes: [UInt8], start: Int, currency: Currency) {
        reader = CSVRecordReader(bytes, from: start)
        badLines = UTF8Lines.badLines(in: bytes, from: start)
        rules = RowRules(currency: currency)
    }

    mutating func run() -> CatalogCSVReading {
        var header: CSVRecord?
        while let record = reader.next() {
            if !record.isBlank {
                header = record
                break
            }
        }
        guard let header, let order = readHeader(header) else { return finished() }

        var count = 0
        while let record = reader.next() {
            if record.isBlank { continue }
            count += 1
            guard count <= CatalogCSV.maximumRows else { continue }
            readRow(record, order: order)
        }
        if count > CatalogCSV.maximumRows {
            let message =
                "The file has \(Numbers.grouped(count)) product rows: "
                + "at most \(Numbers.grouped(CatalogCSV.maximumRows)) products per file."
            return CatalogCSVReading(rows: [], problems: [CatalogFileProblem(line: nil, message: message)])
        }
        if count == 0 {
            problems.add(CatalogFileProblem(line: nil, message: "The file has no products under its header."))
        }
        return finished()
    }

    private func finished() -> CatalogCSVReading {
        CatalogCSVReading(rows: rows, problems: problems.reported)
    }

    /// The column of each of the header's fields, or `nil` when the header has a problem.
    private mutating func readHeader(_ record: CSVRecord) -> [Column]? {
        guard recordIsReadable(record, order: nil) else { return nil }
        let line = record.firstLine
        var order: [Column] = []
        var seen: Set<Column> = []
        var fine = true
        for (index, bytes) in record.fields.enumerated() {
            let name = String(decoding: Text.trimmed(bytes), as: UTF8.self)
            guard !name.isEmpty else {
                problems.add(CatalogFileProblem(line: line, message: "column \(index + 1) has no name"))
                fine = false
                continue
            }
            guard let column = Column.allCases.first(where: { $0.name == name.lowercased() }) else {
                let message =
                    Text.quoted(name).map { "unknown column \($0)" } ?? "column \(index + 1) has an unknown name"
                problems.add(CatalogFileProblem(line: line, message: message))
                fine = false
                continue
            }
            guard seen.insert(column).inserted else {
                problems.add(
                    CatalogFileProblem(
                        line: line, column: column.name, message: "column \"\(column.name)\" appears more than once"))
                fine = false
                continue
            }
            order.append(column)
        }
        for column in Column.allCases where !seen.contains(column) {
            problems.add(
                CatalogFileProblem(line: line, column: column.name, message: "missing column \"\(column.name)\""))
            fine = false
        }
        return fine ? order : nil
    }

    private mutating func readRow(_ record: CSVRecord, order: [Column]) {
        guard recordIsReadable(record, order: order) else { return }
        let line = record.firstLine
        guard record.fields.count == order.count else {
            // A comma the merchant meant inside a value (an unquoted `12,50`) is the usual cause of
            // one field too many.
            let hint =
                record.fields.count > order.count
                ? ": a value with a comma in it needs quotes around it, and a price is written like "
                    + ProductRules.example(rules.currency) : ""
            problems.add(
                CatalogFileProblem(
                    line: line, message: "expected \(order.count) fields, found \(record.fields.count)\(hint)"))
            return
        }
        var fields = [[UInt8]](repeating: [], count: Column.allCases.count)
        for (index, column) in order.enumerated() { fields[column.rawValue] = record.fields[index] }
        let checked = rules.check(fields)
        var rowProblems = checked.problems
        if let sku = checked.sku {
            if let first = skuLines[sku] {
                let subject = Text.quoted(sku).map { "SKU \($0)" } ?? "the SKU"
                rowProblems.insert(
                    RowRules.Problem(column: .sku, message: "\(subject) is also on line \(first)"), at: 0)
            } else {
                skuLines[sku] = line
            }
        }
        for problem in rowProblems {
            problems.add(CatalogFileProblem(line: line, column: problem.column.name, message: problem.message))
        }
        if rowProblems.isEmpty, let row = checked.row {
            rows.append(CatalogCSVReading.Numbered(line: line, row: row))
        }
    }

    /// Whether the record's bytes are UTF-8 and its layout sound; reports the problems when not.
    /// `order` names the fields of a data record (`nil` for the header).
    private mutating func recordIsReadable(_ record: CSVRecord, order: [Column]?) -> Bool {
        while nextBadLine < badLines.count, badLines[nextBadLine] < record.firstLine { nextBadLine += 1 }
        var hasBadLine = false
        while nextBadLine < badLines.count, badLines[nextBadLine] <= record.lastLine {
            problems.add(
                CatalogFileProblem(
                    line: badLines[nextBadLine],
                    message: "this line is not UTF-8 text; save the file as CSV UTF-8"))
            hasBadLine = true
            nextBadLine += 1
        }
        guard !hasBadLine else { return false }
        for layoutProblem in record.layoutProblems {
            problems.add(
                CatalogFileProblem(
                    line: record.firstLine, column: Self.column(of: layoutProblem, order: order),
                    message: Self.message(layoutProblem, order: order)))
        }
        return record.layoutProblems.isEmpty
    }

    /// The column of the field a layout problem is in, when the header named it.
    private static func column(of problem: CSVRecord.LayoutProblem, order: [Column]?) -> String? {
        let field: Int
        switch problem {
        case .quoteInUnquotedField(let index), .textAfterClosingQuote(let index), .unterminatedQuote(let index):
            field = index
        }
        guard let order, field <= order.count else { return nil }
        return order[field - 1].name
    }

    private static func message(_ problem: CSVRecord.LayoutProblem, order: [Column]?) -> String {
        func subject(_ field: Int) -> String {
            guard let order else { return "column \(field)" }
            return field <= order.count ? "the \(order[field - 1].name) field" : "field \(field)"
        }
        switch problem {
        case .quoteInUnquotedField(let field):
            return
                "\(subject(field)) has a quote mark (\") but does not start with one; "
                + "put the whole field in quotes and double each quote mark in it"
        case .textAfterClosingQuote(let field):
            return "\(subject(field)) has text after its closing quote mark"
        case .unterminatedQuote(let field):
            return "\(subject(field)) opens a quote mark that is never closed"
        }
    }
}

/// The problems found so far: the first ``CatalogCSV/maximumProblemsReported``, and how many more.
struct ProblemList {
    private var listed: [CatalogFileProblem] = []
    private var more = 0

    mutating func add(_ problem: CatalogFileProblem) {
        if listed.count < CatalogCSV.maximumProblemsReported {
            listed.append(problem)
        } else {
            more += 1
        }
    }

    /// The problems listed, then one that counts the rest.
    var reported: [CatalogFileProblem] {
        guard more > 0 else { return listed }
        let counted = more == 1 ? "1 more problem" : "\(Numbers.grouped(more)) more problems"
        return listed + [CatalogFileProblem(line: nil, message: "… and \(counted).")]
    }
}
