import CheckoutKit

/// One product as the catalog's CSV carries it.
public struct CatalogRow: Hashable, Sendable {
    /// The merchant's own code for the product: 1–64 ASCII letters, digits, `-`, `_` or `.`.
    public var sku: String
    /// 1–200 characters on one line.
    public var title: String
    /// At most 5,000 characters; line breaks are line feeds.
    public var description: String
    /// 1–60 characters on one line.
    public var category: String
    /// Above zero, in the shop's currency.
    public var price: Money
    /// How many are on hand: 0 to 1,000,000.
    public var stock: Int
    /// Listed in the shop (`true`) or archived (`false`).
    public var active: Bool

    /// A row with every field given.
    public init(
        sku: String, title: String, description: String, category: String, price: Money, stock: Int, active: Bool
    ) {
        self.sku = sku
        self.title = title
        self.description = description
        self.category = category
        self.price = price
        self.stock = stock
        self.active = active
    }
}

/// Something wrong with an uploaded file: on a line (1-based, the physical line where the record
/// starts; the header is normally line 1) or with the file as a whole (line `nil`), and in one
/// column when the problem is a field's.
///
/// A problem on a line has a `message` that completes the sentence `Line 7: … .`, e.g.
/// `price "12,50" is not an amount like 12.50`; ``sentence`` builds it. A problem with the whole
/// file has a `message` that is a sentence of its own, e.g.
/// `The file is empty: it needs a header row and at least one product.`
public struct CatalogFileProblem: Hashable, Sendable {
    /// The physical line where the record with the problem starts, or `nil` for the whole file.
    public let line: Int?
    /// The column (one of ``CatalogCSV/columns``) whose field or header name has the problem;
    /// `nil` when the problem is the line's or the file's as a whole.
    public let column: String?
    /// What is wrong, in plain English a merchant understands.
    public let message: String

    /// A problem on `line` (or the whole file when `nil`), in `column` when it is one field's.
    public init(line: Int?, column: String? = nil, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// The problem as one sentence: `Line 7: price "12,50" is not an amount like 12.50.` for a line,
    /// the message itself for the whole file.
    public var sentence: String {
        guard let line else { return message }
        return "Line \(line): \(message)."
    }
}

/// What reading a catalog CSV found: the rows with the line each starts on, and every problem.
///
/// A file with any problem must not be applied at all (the caller applies all or nothing); the
/// rows that are fine are still listed, for a preview beside the problems.
public struct CatalogCSVReading: Hashable, Sendable {
    /// A row and the physical line its record starts on.
    public struct Numbered: Hashable, Sendable {
        /// The physical line (1-based) where the row's record starts.
        public let line: Int
        /// The row as read.
        public let row: CatalogRow

        /// A row read from `line`.
        public init(line: Int, row: CatalogRow) {
            self.line = line
            self.row = row
        }
    }

    /// Every row that has no problem, in the file's order.
    public var rows: [Numbered]
    /// Every problem found, in the file's order, at most ``CatalogCSV/maximumProblemsReported`` of
    /// them plus one last that counts the rest.
    public var problems: [CatalogFileProblem]

    /// Whether the file has no problem at all, so that it may be applied.
    public var isValid: Bool { problems.isEmpty }

    /// A reading of `rows` with `problems`.
    public init(rows: [Numbered], problems: [CatalogFileProblem]) {
        self.rows = rows
        self.problems = problems
    }
}
