import CheckoutKit

/// The catalog's CSV file: `sku,title,description,category,price,stock,active`, UTF-8, a header row,
/// one product per record.
///
/// ``read(_:currency:)`` finds every problem in a file by line, so that a merchant can fix them all
/// at once; ``write(_:)`` writes rows so that reading them back gives exactly the same rows.
public enum CatalogCSV {
    /// The columns a file has, in the order ``write(_:)`` writes them: `sku`, `title`,
    /// `description`, `category`, `price`, `stock`, `active`. A file may have them in any order.
    public static let columns: [String] = Column.allCases.map(\.name)
    /// The largest file read: 8 MiB.
    public static let maximumBytes: Int = 8 * 1024 * 1024
    /// The most products (data rows) in one file.
    public static let maximumRows: Int = 10_000
    /// The most problems listed one by one; the rest are counted in one last problem.
    public static let maximumProblemsReported: Int = 100

    /// Reads a catalog file, prices in `currency`: the rows that are fine, and every problem.
    ///
    /// Fields are trimmed of surrounding spaces and tabs; one leading `'` that protects a text field
    /// from spreadsheet formulas (see ``write(_:)``) is removed. Blank lines are skipped. A file with
    /// any problem must not be applied.
    public static func read(_ bytes: [UInt8], currency: Currency) -> CatalogCSVReading {
        guard bytes.count <= maximumBytes else {
            return fileProblem(
                "The file is larger than 8 MB: split it into smaller files of at most 10,000 products each.")
        }
        let start = bytes.starts(with: SpreadsheetCSV.byteOrderMark) ? SpreadsheetCSV.byteOrderMark.count : 0
        let isWhitespace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        guard bytes[start...].contains(where: { !isWhitespace($0) }) else {
            return fileProblem("The file is empty: it needs a header row and at least one product.")
        }
        var reading = Reading(bytes: bytes, start: start, currency: currency)
        return reading.run()
    }

    /// The header and one line per row, as ``SpreadsheetCSV`` writes every file: UTF-8 with a
    /// byte-order mark, CRLF line ends, RFC 4180 quotes only around a field that holds a comma, a
    /// quote or a line break.
    ///
    /// A text field (sku, title, description, category) that starts with `=`, `+`, `-`, `@`, a
    /// tab, a carriage return or `'` is written with one `'` before it, so that a spreadsheet does
    /// not take it for a formula; ``read(_:currency:)`` removes it again. The price is written like
    /// `12.50`, the stock in decimal and active as `true` or `false`.
    public static func write(_ rows: [CatalogRow]) -> [UInt8] {
        var csv = SpreadsheetCSV(columns: columns, reservingCapacity: 64 + rows.count * 128)
        for row in rows {
            for column in Column.allCases {
                switch column {
                case .sku: csv.text(row.sku)
                case .title: csv.text(row.title)
                case .description: csv.text(row.description)
                case .category: csv.text(row.category)
                case .price: csv.value(row.price.amountText)
                case .stock: csv.value(String(row.stock))
                case .active: csv.value(row.active ? "true" : "false")
                }
            }
            csv.endRecord()
        }
        return csv.bytes
    }

    private static func fileProblem(_ message: String) -> CatalogCSVReading {
        CatalogCSVReading(rows: [], problems: [CatalogFileProblem(line: nil, message: message)])
    }
}

/// A column of the catalog's CSV.
enum Column: Int, CaseIterable, Hashable {
    case sku, title, description, category, price, stock, active

    /// The column's name in the header.
    var name: String {
        switch self {
        case .sku: "sku"
        case .title: "title"
        case .description: "description"
        case .category: "category"
        case .price: "price"
        case .stock: "stock"
        case .active: "active"
        }
    }

    /// How a message calls the field: `SKU`, `title`…
    var label: String { self == .sku ? "SKU" : name }

    /// The column that holds a product's `field`.
    init(_ field: ProductField) {
        switch field {
        case .sku: self = .sku
        case .title: self = .title
        case .description: self = .description
        case .category: self = .category
        case .price: self = .price
        case .active: self = .active
        }
    }
}
