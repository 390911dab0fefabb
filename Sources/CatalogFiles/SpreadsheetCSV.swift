/// A CSV file as the back office hands it out to spreadsheets — the catalog's export and the audit
/// log's — written in one place, so that every file follows the same rules: UTF-8 with a byte-order
/// mark (so that spreadsheets read accents right), CRLF line ends, and RFC 4180 quotes (doubled
/// inside) only around a field that holds a comma, a quote or a line break.
///
/// A field someone typed (``text(_:)``) that starts with `=`, `+`, `-`, `@`, a tab, a carriage
/// return or `'` is written with one `'` before it, so that a spreadsheet never takes it for a
/// formula; ``unprotected(_:)`` takes that `'` off again, and gives back exactly what was typed —
/// a text that itself started with `'` was protected too.
public struct SpreadsheetCSV: Sendable {
    /// The file so far.
    public private(set) var bytes: [UInt8]
    /// Whether the record being written has a field yet, so that the next one needs a comma.
    private var recordHasField = false

    /// A file with its byte-order mark and a header row of `columns`; `capacity` bytes reserved.
    public init(columns: [String], reservingCapacity capacity: Int = 0) {
        bytes = Self.byteOrderMark
        bytes.reserveCapacity(max(capacity, 64))
        for column in columns { value(column) }
        endRecord()
    }

    /// Appends a field someone typed — a title, an email, a value before and after a change —
    /// protected from being taken for a formula.
    public mutating func text(_ field: String) {
        value(Self.protected(field))
    }

    /// Appends a field the store wrote itself — a number, an amount, `true`, an instant — as it is.
    public mutating func value(_ field: String) {
        if recordHasField { bytes.append(UInt8(ascii: ",")) }
        recordHasField = true
        let utf8 = field.utf8
        let needsQuotes = utf8.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A
        }
        guard needsQuotes else {
            bytes.append(contentsOf: utf8)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for byte in utf8 {
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Ends the record: the next field starts a new line.
    public mutating func endRecord() {
        bytes.append(contentsOf: [0x0D, 0x0A])
        recordHasField = false
    }

    /// The byte-order mark every file starts with.
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The characters a spreadsheet may take as the start of a formula, and `'` itself.
    public static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r", "'"]

    /// `text` with a `'` before it when it starts like a formula (or with a `'`).
    public static func protected(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, formulaStarts.contains(first) else { return text }
        return "'" + text
    }

    /// `text` without the `'` that ``protected(_:)`` put before it.
    public static func unprotected(_ text: String) -> String {
        var scalars = text.unicodeScalars.makeIterator()
        guard scalars.next() == "'", let second = scalars.next(), formulaStarts.contains(second) else { return text }
        return String(text.unicodeScalars.dropFirst())
    }
}
