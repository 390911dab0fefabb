import CheckoutKit
import Foundation

/// The rules each field of a data record follows: the row when every field is fine, and a message
/// for every field that is not (each completes `Line 7: … .`).
///
/// A product's fields are judged by ``CheckoutKit/ProductRules`` — the one set of rules every face
/// uses — and the row holds the values it keeps (trimmed as a form's fields are), so a row read
/// here is exactly what the shop would store. What is added here is the wording for a field the
/// rules refuse: a message that names the column and, where it helps, repeats the merchant's value
/// (worked out only for a refused field, so a good file is judged once). The stock and `active`
/// columns, which no form has, are judged here.
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
        func text(_ column: Column) -> String {
            let text = Text.trimmed(String(decoding: fields[column.rawValue], as: UTF8.self))
            return Self.isText(column) ? SpreadsheetCSV.unprotected(text) : text
        }
        /// The value when the rule takes it; otherwise the column's own words for why not (or, should
        /// they find nothing, the rule's).
        func judged<Value>(
            _ column: Column, _ text: String, _ rule: Result<Value, ProductFieldProblem>,
            explain: (String, (String) -> Void) -> Void
        ) -> Value? {
            guard case .failure(let refusal) = rule else { return try? rule.get() }
            let before = problems.count
            let report = { (message: String) in problems.append(Problem(column: column, message: message)) }
            if CardNumberDetector.containsCardNumber(text) {
                report(Self.cardNumberMessage(column))
            } else {
                explain(text, report)
            }
            if problems.count == before { report(Text.clause(refusal.message)) }
            return nil
        }
        func own<Value>(_ column: Column, _ check: (String, (String) -> Void) -> Value?) -> Value? {
            let value = text(column)
            let report = { (message: String) in problems.append(Problem(column: column, message: message)) }
            guard !CardNumberDetector.containsCardNumber(value) else {
                report(Self.cardNumberMessage(column))
                return nil
            }
            return check(value, report)
        }
        let skuText = text(.sku)
        let sku = judged(.sku, skuText, ProductRules.sku(skuText)) { _ = checkSKU($0, $1) }
        let titleText = text(.title)
        let title = judged(.title, titleText, ProductRules.title(titleText)) {
            _ = checkLine($0, .title, lengths: Self.titleLengths, $1)
        }
        let descriptionText = text(.description)
        let description = judged(.description, descriptionText, ProductRules.description(descriptionText)) {
            _ = checkDescription($0, $1)
        }
        let categoryText = text(.category)
        let category = judged(.category, categoryText, ProductRules.category(categoryText)) {
            _ = checkLine($0, .category, lengths: Self.categoryLengths, $1)
        }
        let priceText = text(.price)
        let price = judged(.price, priceText, ProductRules.price(priceText, currency: currency)) {
            _ = checkPrice($0, $1)
        }
        let stock = own(.stock) { checkStock($0, $1) }
        let active = own(.active) { checkActive($0, $1) }
        guard let sku, let title, let description, let category, let price, let stock, let active else {
            return Checked(row: nil, sku: sku, problems: problems)
        }
        let row = CatalogRow(
            sku: sku, title: title, description: description, category: category, price: price, stock: stock,
            active: active)
        return Checked(row: row, sku: sku, problems: [])
    }

    private static func cardNumberMessage(_ column: Column) -> String {
        "the \(column.label) holds what looks like a card number; the shop never stores card numbers"
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
        ProductRules.trimmed(text)
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
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
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
