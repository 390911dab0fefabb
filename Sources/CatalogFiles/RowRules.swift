import CheckoutKit

/// The rules each field of a data record follows: the row when every field is fine, and a message
/// for every field that is not (each completes `Line 7: … .`).
struct RowRules {
    let currency: Currency

    static let skuLengths = 1...64
    static let titleLengths = 1...200
    static let maximumDescriptionLength = 5_000
    static let categoryLengths = 1...60
    static let stockRange = 0...1_000_000

    /// What checking one record's fields found.
    struct Checked {
        /// The row, when no field has a problem.
        var row: CatalogRow?
        /// The SKU, when it is fine (whatever the other fields are), to find one that is repeated.
        var sku: String?
        var problems: [String]
    }

    /// Checks `fields`, one per ``Column`` in its order, untrimmed.
    func check(_ fields: [[UInt8]]) -> Checked {
        var problems: [String] = []
        func value(_ column: Column) -> String? {
            let text = String(decoding: Text.trimmed(fields[column.rawValue]), as: UTF8.self)
            let value = Self.isText(column) ? CatalogCSV.unprotected(text) : text
            guard !CardNumberDetector.containsCardNumber(value) else {
                problems.append(
                    "the \(column.label) holds what looks like a card number; the shop never stores card numbers")
                return nil
            }
            return value
        }
        let sku = value(.sku).flatMap { checkSKU($0, &problems) }
        let title = value(.title).flatMap { checkLine($0, .title, lengths: Self.titleLengths, &problems) }
        let description = value(.description).flatMap { checkDescription($0, &problems) }
        let category = value(.category).flatMap { checkLine($0, .category, lengths: Self.categoryLengths, &problems) }
        let price = value(.price).flatMap { checkPrice($0, &problems) }
        let stock = value(.stock).flatMap { checkStock($0, &problems) }
        let active = value(.active).flatMap { checkActive($0, &problems) }
        guard let sku, let title, let description, let category, let price, let stock, let active else {
            return Checked(row: nil, sku: sku, problems: problems)
        }
        let row = CatalogRow(
            sku: sku, title: title, description: description, category: category, price: price, stock: stock,
            active: active)
        return Checked(row: row, sku: sku, problems: problems)
    }

    private static func isText(_ column: Column) -> Bool {
        switch column {
        case .sku, .title, .description, .category: true
        case .price, .stock, .active: false
        }
    }

    private func checkSKU(_ sku: String, _ problems: inout [String]) -> String? {
        guard !sku.isEmpty else {
            problems.append("SKU is empty")
            return nil
        }
        var fine = true
        if sku.count > Self.skuLengths.upperBound {
            problems.append("SKU is longer than \(Self.skuLengths.upperBound) characters")
            fine = false
        }
        let allowed = sku.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
        if !allowed {
            let subject = Text.quoted(sku).map { "SKU \($0)" } ?? "SKU"
            problems.append("\(subject) may only hold the letters A–Z and a–z, digits, \"-\", \"_\" and \".\"")
            fine = false
        }
        return fine ? sku : nil
    }

    private func checkLine(
        _ text: String, _ column: Column, lengths: ClosedRange<Int>, _ problems: inout [String]
    ) -> String? {
        guard !text.isEmpty else {
            problems.append("\(column.label) is empty")
            return nil
        }
        var fine = true
        if text.count > lengths.upperBound {
            problems.append("\(column.label) is longer than \(Numbers.grouped(lengths.upperBound)) characters")
            fine = false
        }
        if text.unicodeScalars.contains(where: Text.isControl) {
            problems.append("\(column.label) holds a line break or another control character")
            fine = false
        }
        return fine ? text : nil
    }

    private func checkDescription(_ text: String, _ problems: inout [String]) -> String? {
        var fine = true
        if text.count > Self.maximumDescriptionLength {
            problems.append(
                "description is longer than \(Numbers.grouped(Self.maximumDescriptionLength)) characters")
            fine = false
        }
        if text.unicodeScalars.contains(where: { Text.isControl($0) && $0 != "\n" }) {
            problems.append("description holds a control character other than a line break")
            fine = false
        }
        return fine ? text : nil
    }

    private func checkPrice(_ text: String, _ problems: inout [String]) -> Money? {
        guard !text.isEmpty else {
            problems.append("price is empty")
            return nil
        }
        let subject = Text.quoted(text).map { "price \($0)" } ?? "price"
        let price: Money
        do {
            price = try Money(amount: text, currency: currency)
        } catch .outOfRange {
            problems.append("\(subject) is too large")
            return nil
        } catch {
            problems.append("\(subject) is not an amount like \(Self.example(currency))")
            return nil
        }
        guard price.isPositive else {
            problems.append("price must be above zero")
            return nil
        }
        return price
    }

    private func checkStock(_ text: String, _ problems: inout [String]) -> Int? {
        guard !text.isEmpty else {
            problems.append("stock is empty")
            return nil
        }
        var stock = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), stock <= Self.stockRange.upperBound else {
                stock = -1
                break
            }
            stock = stock * 10 + Int(byte - UInt8(ascii: "0"))
        }
        guard Self.stockRange.contains(stock) else {
            let subject = Text.quoted(text).map { "stock \($0)" } ?? "stock"
            problems.append(
                "\(subject) is not a whole number from \(Self.stockRange.lowerBound) "
                    + "to \(Numbers.grouped(Self.stockRange.upperBound))")
            return nil
        }
        return stock
    }

    private func checkActive(_ text: String, _ problems: inout [String]) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        case "":
            problems.append("active is empty")
            return nil
        default:
            let subject = Text.quoted(text).map { "active \($0)" } ?? "active"
            problems.append("\(subject) is not one of true, false, yes, no, 1 or 0")
            return nil
        }
    }

    /// An amount in `currency` as a merchant would type it: `12.50`, `1250` (JPY), `12.500` (KWD).
    static func example(_ currency: Currency) -> String {
        let perMajor = currency.minorUnitsPerMajorUnit
        let minorUnits = perMajor == 1 ? 1250 : 1250 * perMajor / 100
        return Money(minorUnits: minorUnits, currency: currency).amountText
    }
}

/// Small helpers for the text of fields and messages.
enum Text {
    /// The longest part of a merchant's value that a message repeats.
    static let maximumEchoedCharacters = 40

    /// `bytes` without the spaces and tabs around them.
    static func trimmed(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) })
        else { return [] }
        return bytes[first...last]
    }

    /// `value` in quotes for a message, cut to 40 characters with `…`, its control characters shown
    /// as `�`; `nil` when what would be shown looks like a card number (never repeated).
    static func quoted(_ value: String) -> String? {
        var excerpt = String(value.prefix(maximumEchoedCharacters))
        if excerpt.count < value.count { excerpt += "…" }
        var shown = String.UnicodeScalarView()
        for scalar in excerpt.unicodeScalars { shown.append(isControl(scalar) ? "\u{FFFD}" : scalar) }
        let quoted = "\"" + String(shown) + "\""
        return CardNumberDetector.containsCardNumber(quoted) ? nil : quoted
    }

    /// A control character (Unicode's general category Cc: U+0000–U+001F, U+007F–U+009F).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}

/// Whole numbers as a merchant reads them.
enum Numbers {
    /// `10000` as `10,000`.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = number < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
