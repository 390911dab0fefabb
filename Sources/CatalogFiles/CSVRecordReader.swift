/// One record of a CSV file as RFC 4180 splits it, before any meaning is given to its fields.
struct CSVRecord {
    /// Why a record's layout is broken; the record's fields cannot be trusted.
    enum LayoutProblem: Hashable {
        /// A `"` inside a field that does not start with one.
        case quoteInUnquotedField(field: Int)
        /// Something other than a comma or a line end after a field's closing quote.
        case textAfterClosingQuote(field: Int)
        /// A quoted field whose closing quote never comes.
        case unterminatedQuote(field: Int)
    }

    /// The physical line the record starts on.
    var firstLine: Int
    /// The physical line the record ends on (later than `firstLine` when a quoted field holds line breaks).
    var lastLine: Int
    /// The fields' bytes, unquoted: doubled quotes made single, CRLF inside quotes made LF. Not trimmed.
    var fields: [[UInt8]]
    var layoutProblems: [LayoutProblem]
    /// A line with nothing on it but spaces and tabs.
    var isBlank: Bool
}

/// Splits CSV bytes into records in one pass (RFC 4180: `,` between fields, CRLF or LF between
/// records, `"` around a field that holds commas, quotes or line breaks). A bare CR that is not
/// followed by LF is an ordinary character. Counts physical lines (line feeds) as it goes.
struct CSVRecordReader {
    private let bytes: [UInt8]
    private var position: Int
    private var line = 1

    /// Reads `bytes` from `start` (after a byte-order mark), which is the start of line 1.
    init(_ bytes: [UInt8], from start: Int) {
        self.bytes = bytes
        self.position = start
    }

    private static let comma = UInt8(ascii: ",")
    private static let quote = UInt8(ascii: "\"")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    /// The next record, or `nil` at the end of the bytes.
    mutating func next() -> CSVRecord? {
        guard position < bytes.count else { return nil }
        var record = CSVRecord(firstLine: line, lastLine: line, fields: [], layoutProblems: [], isBlank: true)
        while true {
            let field = record.fields.count + 1
            var content: [UInt8] = []
            skipSpacesAndTabs()
            if position < bytes.count, bytes[position] == Self.quote {
                record.isBlank = false
                position += 1
                guard readQuoted(into: &content) else {
                    record.layoutProblems.append(.unterminatedQuote(field: field))
                    record.fields.append(content)
                    record.lastLine = line
                    return record
                }
                skipSpacesAndTabs()
                if position < bytes.count, bytes[position] != Self.comma, !isAtLineEnd {
                    record.layoutProblems.append(.textAfterClosingQuote(field: field))
                    while position < bytes.count, bytes[position] != Self.comma, !isAtLineEnd { position += 1 }
                }
            } else {
                var sawQuote = false
                while position < bytes.count {
                    let byte = bytes[position]
                    if byte == Self.comma || isAtLineEnd { break }
                    if byte == Self.quote && !sawQuote {
                        sawQuote = true
                        record.layoutProblems.append(.quoteInUnquotedField(field: field))
                    }
                    content.append(byte)
                    position += 1
                }
                if content.contains(where: { $0 != Self.space && $0 != Self.tab }) { record.isBlank = false }
            }
            record.fields.append(content)
            record.lastLine = line
            guard position < bytes.count else { return record }
            if bytes[position] == Self.comma {
                record.isBlank = false
                position += 1
                continue
            }
            // A line end: LF or CRLF.
            position += bytes[position] == Self.carriageReturn ? 2 : 1
            line += 1
            return record
        }
    }

    /// Whether the reader stands on LF or on CR followed by LF.
    private var isAtLineEnd: Bool {
        let byte = bytes[position]
        return byte == Self.lineFeed
            || (byte == Self.carriageReturn && position + 1 < bytes.count && bytes[position + 1] == Self.lineFeed)
    }

    private mutating func skipSpacesAndTabs() {
        while position < bytes.count, bytes[position] == Self.space || bytes[position] == Self.tab { position += 1 }
    }

    /// Reads a quoted field's content after its opening quote, up to and past its closing quote;
    /// `false` when the bytes end first.
    private mutating func readQuoted(into content: inout [UInt8]) -> Bool {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == Self.quote {
                if position + 1 < bytes.count, bytes[position + 1] == Self.quote {
                    content.append(Self.quote)
                    position += 2
                    continue
                }
                position += 1
                return true
            }
            if byte == Self.carriageReturn, position + 1 < bytes.count, bytes[position + 1] == Self.lineFeed {
                content.append(Self.lineFeed)
                line += 1
                position += 2
                continue
            }
            if byte == Self.lineFeed { line += 1 }
            content.append(byte)
            position += 1
        }
        return false
    }
}
