import CheckoutKit
import Foundation

/// The rules each field of a data record follows: the row when every field is fine, and a message
/// for every field that is not (each completes `Line 7: … .`).
///
/// The rules are ``CheckoutKit/ProductRules``' — the same limits, and the row's values are the ones
/// ``CheckoutKit/ProductRules`` makes of the fields (trimmed as a form's fields are), so a row read
/// here is exactly what the shop would store. What is added here is the wording: each message names
/// the column and, where it helps, repeats the merchant's value.
struct RowRules {
    let currency: Currency

    static let skuLengths = ProductRules.skuLengths
    static let titleLengths = ProductRules.titleLengths
    static let maximumDescriptionLength = ProductRules.maximumDescriptionLength
    static let categoryLengths = ProductRules.categoryLengths
    static let stockRange = 0...1_000_000

    /// One field's problem: its column and the message.
    struct Problem: Hashable {
        let column: Column
        let message: String
    }

    /// What checking one record's fields found.
    struct Checked {
        /// The row, when no field has a problem.
        var row: CatalogRow?
        /// The SKU, when it is fine (whatever the other fields are), to find one that is repeated.
        var sku: String?
        var problems: [Problem]
    }

    /// Checks `fields`, one per ``Column`` in its order, untrimmed.
    func check(_ fields: [[UInt8]]) -> Checked {
        var problems: [Problem] = []
        func value(_ column: Column) -> String? {
            let text = Text.trimmed(String(decoding: fields[column.rawValue], as: UTF8.self))
            let value = Self.isText(column) ? CatalogCSV.unprotected(text) : text
            guard !CardNumberDetector.containsCardNumber(value) else {
                problems.append(
                    Problem(
                        column: column,
                        message:
                            "the \(column.label) holds what looks like a card number; the shop never stores card numbers"
                    ))
                return nil
            }
            return value
        }
        func report(_ column: Column) -> (String) -> Void {
            { problems.append(Problem(column: column, message: $0)) }
        }
        let sku = value(.sku).flatMap { checkSKU($0, report(.sku)) }
        let title = value(.title).flatMap { checkLine($0, .title, lengths: Self.titleLengths, report(.title)) }
        let description = value(.description).flatMap { checkDescription($0, report(.description)) }
        let category = value(.category).flatMap {
            checkLine($0, .category, lengths: Self.categoryLengths, report(.category))
        }
        let price = value(.price).flatMap { checkPrice($0, report(.price)) }
        let stock = value(.stock).flatMap { checkStock($0, report(.stock)) }
        let active = value(.active).flatMap { checkActive($0, report(.active)) }
        guard let sku, let title, let description, let category, let price, let stock, let active else {
            return Checked(row: nil, sku: sku, problems: problems)
        }
        // The values the shop keeps, by the one set of rules every face uses. The checks above are
        // at least as strict, so this refuses nothing they let through; should it, its own words say why.
        switch ProductRules.details(
            sku: sku, title: title, description: description, category: category, price: price, active: active,
            currency: currency)
        {
        case .success(let details):
            let row = CatalogRow(
                sku: details.sku, title: details.title, description: details.description, category: details.category,
                price: details.price, stock: stock, active: details.active)
            return Checked(row: row, sku: sku, problems: [])
        case .failure(let error):
            let refused = error.problems.map { problem in
                Problem(column: Column(problem.field), message: Text.clause(problem.message))
            }
            return Checked(row: nil, sku: sku, problems: refused)
        }
    }

    private static func isText(_ column: Column) -> Bool {
        switch column {
        case .sku, .title, .description, .category: true
        case .price, .stock, .active: false
        }
    }

    private func checkSKU(_ sku: String, _ report: (String) -> Void) -> String? {
        guard !sku.isEmpty else {
            report("SKU is empty")
            return nil
        }
        var fine = true
        if sku.count > Self.skuLengths.upperBound {
            report("SKU is longer than \(Self.skuLengths.upperBound) characters")
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
            report("\(subject) may only hold the letters A–Z and a–z, digits, \"-\", \"_\" and \".\"")
            fine = false
        }
        return fine ? sku : nil
    }

    private func checkLine(
        _ text: String, _ column: Column, lengths: ClosedRange<Int>, _ report: (String) -> Void
    ) -> String? {
        guard !text.isEmpty else {
            report("\(column.label) is empty")
            return nil
        }
        var fine = true
        if text.count > lengths.upperBound {
            report("\(column.label) is longer than \(Numbers.grouped(lengths.upperBound)) characters")
            fine = false
        }
        if text.unicodeScalars.contains(where: Text.isControl) {
            report("\(column.label) holds a line break or another control character")
            fine = false
        }
        return fine ? text : nil
    }

    private func checkDescription(_ text: String, _ report: (String) -> Void) -> String? {
        var fine = true
        if text.count > Self.maximumDescriptionLength {
            report("description is longer than \(Numbers.grouped(Self.maximumDescriptionLength)) characters")
            fine = false
        }
        if text.unicodeScalars.contains(where: { Text.isControl($0) && $0 != "\n" }) {
            report("description holds a control character other than a line break")
            fine = false
        }
        return fine ? text : nil
    }

    private func checkPrice(_ text: String, _ report: (String) -> Void) -> Money? {
        guard !text.isEmpty else {
            report("price is empty")
            return nil
        }
        let subject = Text.quoted(text).map { "price \($0)" } ?? "price"
        let price: Money
        do {
            price = try Money(amount: text, currency: currency)
        } catch .outOfRange {
            report("\(subject) is too large")
            return nil
        } catch {
            report("\(subject) is not an amount like \(ProductRules.example(currency))")
            return nil
        }
        guard price.isPositive else {
            report("price must be above zero")
            return nil
        }
        return price
    }

    private func checkStock(_ text: String, _ report: (String) -> Void) -> Int? {
        guard !text.isEmpty else {
            report("stock is empty")
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
            report(
                "\(subject) is not a whole number from \(Self.stockRange.lowerBound) "
                    + "to \(Numbers.grouped(Self.stockRange.upperBound))")
            return nil
        }
        return stock
    }

    private func checkActive(_ text: String, _ report: (String) -> Void) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        case "":
            report("active is empty")
            return nil
        default:
            let subject = Text.quoted(text).map { "active \($0)" } ?? "active"
            report("\(subject) is not one of true, false, yes, no, 1 or 0")
            return nil
        }
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

    /// `text` without the white space and line breaks around it, as ``CheckoutKit/ProductRules``
    /// trims a form's fields (a no-break space too).
    static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A sentence made into a clause that completes `Line 7: … .`: its first letter lower case,
    /// without its closing full stop.
    static func clause(_ sentence: String) -> String {
        var clause = sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
        if let first = clause.first { clause = first.lowercased() + clause.dropFirst() }
        return clause
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
