import Foundation

/// What a merchant sets on a product (docs/BEHAVIOUR.md §13.5): the rest — its id, image, rating,
/// stock — the store keeps. Every face that takes these from a person (the back office's form, its
/// JSON API, the catalog's CSV) checks them by the same ``ProductRules``.
public struct ProductDetails: Hashable, Sendable {
    /// The merchant's own code for the product, unique in the shop (`BOTTLE-750`).
    public var sku: String
    public var title: String
    public var description: String
    public var category: String
    public var price: Money
    /// Listed in the shop; `false` is archived: kept for the orders that point at it, not sold.
    public var active: Bool

    public init(sku: String, title: String, description: String, category: String, price: Money, active: Bool) {
        self.sku = sku
        self.title = title
        self.description = description
        self.category = category
        self.price = price
        self.active = active
    }
}

/// A field of a product a merchant edits.
public enum ProductField: String, CaseIterable, Hashable, Sendable {
    case sku
    case title
    case description
    case category
    case price
    case active

    /// How the field is called to a merchant: `SKU`, `Title`…
    public var label: String {
        switch self {
        case .sku: "SKU"
        case .title: "Title"
        case .description: "Description"
        case .category: "Category"
        case .price: "Price"
        case .active: "Active"
        }
    }
}

/// A value a merchant gave that a product cannot have, and why, in one sentence.
public struct ProductFieldProblem: Error, Hashable, Sendable {
    public let field: ProductField
    public let message: String

    public init(field: ProductField, message: String) {
        self.field = field
        self.message = message
    }
}

/// Every problem with a product's details, field by field: the whole form is answered at once.
public struct ProductDetailsError: Error, Hashable, Sendable {
    public let problems: [ProductFieldProblem]

    public init(problems: [ProductFieldProblem]) {
        self.problems = problems
    }
}

/// The rules a product's details follow, one function per field, each giving the cleaned value or
/// the problem. Text is trimmed of surrounding white space; nothing that looks like a card number
/// is ever kept (the shop never stores one, docs/BEHAVIOUR.md §5.7).
public enum ProductRules {
    public static let skuLengths = 1...64
    public static let titleLengths = 1...200
    public static let maximumDescriptionLength = 5_000
    public static let categoryLengths = 1...60

    /// Letters, digits, `-`, `_` and `.` (ASCII), 1–64 of them.
    public static func sku(_ text: String) -> Result<String, ProductFieldProblem> {
        let sku = trimmed(text)
        let allowed = sku.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || scalar == "-" || scalar == "_" || scalar == ".")
        }
        guard skuLengths.contains(sku.unicodeScalars.count), allowed else {
            return .failure(
                problem(.sku, "A SKU has 1 to 64 letters, digits, hyphens, underscores or dots, and no spaces."))
        }
        guard !CardNumberDetector.containsCardNumber(sku) else { return .failure(cardNumber(.sku)) }
        return .success(sku)
    }

    /// 1–200 characters, no control characters.
    public static func title(_ text: String) -> Result<String, ProductFieldProblem> {
        line(text, .title, lengths: titleLengths)
    }

    /// At most 5,000 characters; line breaks kept (CRLF becomes LF), no other control characters.
    public static func description(_ text: String) -> Result<String, ProductFieldProblem> {
        let lineEnds = text.utf8.contains(UInt8(ascii: "\r")) ? text.replacingOccurrences(of: "\r\n", with: "\n") : text
        let description = trimmed(lineEnds)
        guard description.count <= maximumDescriptionLength else {
            return .failure(problem(.description, "A description has at most 5,000 characters."))
        }
        guard !description.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" }) else {
            return .failure(problem(.description, "A description has no control characters other than line breaks."))
        }
        guard !CardNumberDetector.containsCardNumber(description) else { return .failure(cardNumber(.description)) }
        return .success(description)
    }

    /// 1–60 characters, no control characters.
    public static func category(_ text: String) -> Result<String, ProductFieldProblem> {
        line(text, .category, lengths: categoryLengths)
    }

    /// An amount in the shop's currency, above zero, written like `12.50` (the currency's minor
    /// digits; no sign, grouping or exponent).
    public static func price(_ text: String, currency: Currency) -> Result<Money, ProductFieldProblem> {
        let amount = trimmed(text)
        guard let price = try? Money(amount: amount, currency: currency) else {
            return .failure(problem(.price, "A price is an amount like \(example(currency)), with a dot for decimals."))
        }
        return self.price(price, currency: currency)
    }

    /// `price` if it is in the shop's currency and above zero.
    public static func price(_ price: Money, currency: Currency) -> Result<Money, ProductFieldProblem> {
        guard price.currency == currency else {
            return .failure(problem(.price, "A price is in \(currency.code)."))
        }
        guard price.minorUnits > 0 else { return .failure(problem(.price, "A price is above zero.")) }
        return .success(price)
    }

    /// Checks every field at once: the details, or every problem found.
    public static func details(
        sku: String, title: String, description: String, category: String, price: Money, active: Bool,
        currency: Currency
    ) -> Result<ProductDetails, ProductDetailsError> {
        details(
            sku: self.sku(sku), title: self.title(title), description: self.description(description),
            category: self.category(category), price: self.price(price, currency: currency), active: active)
    }

    /// Checks every field at once, the price given as text (a form's field).
    public static func details(
        sku: String, title: String, description: String, category: String, priceText: String, active: Bool,
        currency: Currency
    ) -> Result<ProductDetails, ProductDetailsError> {
        details(
            sku: self.sku(sku), title: self.title(title), description: self.description(description),
            category: self.category(category), price: self.price(priceText, currency: currency), active: active)
    }

    private static func details(
        sku: Result<String, ProductFieldProblem>, title: Result<String, ProductFieldProblem>,
        description: Result<String, ProductFieldProblem>, category: Result<String, ProductFieldProblem>,
        price: Result<Money, ProductFieldProblem>, active: Bool
    ) -> Result<ProductDetails, ProductDetailsError> {
        switch (sku, title, description, category, price) {
        case (
            .success(let sku), .success(let title), .success(let description), .success(let category),
            .success(let price)
        ):
            return .success(
                ProductDetails(
                    sku: sku, title: title, description: description, category: category, price: price,
                    active: active))
        default:
            let problems = [
                sku.problem, title.problem, description.problem, category.problem, price.problem,
            ].compactMap { $0 }
            return .failure(ProductDetailsError(problems: problems))
        }
    }

    /// An amount in `currency` as a merchant would type it: `12.50`, `1250` (JPY), `12.500` (KWD).
    public static func example(_ currency: Currency) -> String {
        let perMajor = currency.minorUnitsPerMajorUnit
        return Money(minorUnits: perMajor == 1 ? 1250 : 1250 * perMajor / 100, currency: currency).amountText
    }

    private static func line(
        _ text: String, _ field: ProductField, lengths: ClosedRange<Int>
    ) -> Result<String, ProductFieldProblem> {
        let value = trimmed(text)
        guard lengths.contains(value.count) else {
            return .failure(
                problem(
                    field,
                    "A \(field.label.lowercased()) has \(lengths.lowerBound) to \(lengths.upperBound) characters."))
        }
        guard !value.unicodeScalars.contains(where: isControl) else {
            return .failure(problem(field, "A \(field.label.lowercased()) is one line of text."))
        }
        guard !CardNumberDetector.containsCardNumber(value) else { return .failure(cardNumber(field)) }
        return .success(value)
    }

    /// `text` without the white space and line breaks around it (Foundation's
    /// `whitespacesAndNewlines`: spaces of every width, tabs, line and paragraph separators), as
    /// every field is kept. Only the ends are looked at, so long text is cheap to trim.
    public static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let blank = CharacterSet.whitespacesAndNewlines
        guard let first = scalars.firstIndex(where: { !blank.contains($0) }),
            let last = scalars.lastIndex(where: { !blank.contains($0) })
        else { return "" }
        if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) { return text }
        return String(scalars[first...last])
    }

    /// A control character: Unicode's general category Cc, which is exactly U+0000–U+001F and
    /// U+007F–U+009F (compared as numbers: looking the category up is slow on long text).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func problem(_ field: ProductField, _ message: String) -> ProductFieldProblem {
        ProductFieldProblem(field: field, message: message)
    }

    private static func cardNumber(_ field: ProductField) -> ProductFieldProblem {
        problem(field, "This holds what looks like a card number; the shop never stores card numbers.")
    }
}

extension Result {
    fileprivate var problem: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
