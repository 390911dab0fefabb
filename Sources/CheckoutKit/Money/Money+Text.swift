import Foundation

/// Why a decimal text could not become an exact amount of money.
public enum MoneyParseError: Error, Hashable, Sendable {
    /// Not a plain decimal such as `10.20` or `-3` (no exponent, no sign other than a leading `-`,
    /// no spaces, no grouping).
    case notADecimal
    /// More fraction digits than the currency has; the amount would have to be rounded.
    case tooManyFractionDigits(allowed: Int)
    /// The amount does not fit in the range the store holds.
    case outOfRange
    /// The currency code is not one the store knows.
    case unknownCurrency(String)
}

extension MoneyParseError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notADecimal: "the amount is not a decimal number such as 10.20"
        case .tooManyFractionDigits(let allowed): "the amount has more than \(allowed) decimal places"
        case .outOfRange: "the amount is out of range"
        case .unknownCurrency(let code): "unknown currency \(code)"
        }
    }
}

extension Money {
    /// The largest magnitude accepted from text: a trillion major units, far above any basket and
    /// far below `Int64.max`, so sums of accepted amounts cannot overflow.
    public static let maximumParsedMajorUnits: Int64 = 1_000_000_000_000

    /// Reads a plain decimal amount exactly: `"10.20"`, `"10.2"`, `"10"`, `"-0.05"`.
    ///
    /// Text with more fraction digits than the currency has (`"4.495"` in EUR), an exponent, a
    /// `+`, spaces, grouping separators or leading zeros is rejected rather than rounded.
    public init(amount text: String, currency: Currency) throws(MoneyParseError) {
        let bytes = Array(text.utf8)
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index += 1 }

        func digitRun(from start: Int) -> [Int64] {
            var digits: [Int64] = []
            var position = start
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                digits.append(Int64(bytes[position] - UInt8(ascii: "0")))
                position += 1
            }
            return digits
        }

        let integerDigits = digitRun(from: index)
        index += integerDigits.count
        guard !integerDigits.isEmpty, integerDigits.count == 1 || integerDigits[0] != 0 else { throw .notADecimal }
        var fractionDigits: [Int64] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            fractionDigits = digitRun(from: index + 1)
            index += 1 + fractionDigits.count
            guard !fractionDigits.isEmpty else { throw .notADecimal }
        }
        guard index == bytes.count else { throw .notADecimal }
        guard fractionDigits.count <= currency.minorUnitDigits else {
            throw .tooManyFractionDigits(allowed: currency.minorUnitDigits)
        }
        guard integerDigits.count <= 13 else { throw .outOfRange }

        let major = integerDigits.reduce(0) { $0 * 10 + $1 }
        guard major <= Money.maximumParsedMajorUnits else { throw .outOfRange }
        var minor = fractionDigits.reduce(0) { $0 * 10 + $1 }
        for _ in fractionDigits.count..<currency.minorUnitDigits { minor *= 10 }
        let magnitude = major * currency.minorUnitsPerMajorUnit + minor
        self.init(minorUnits: negative ? -magnitude : magnitude, currency: currency)
    }

    /// Reads an amount in a currency given by its ISO 4217 code.
    public init(amount text: String, currencyCode: String) throws(MoneyParseError) {
        guard let currency = Currency(code: currencyCode) else { throw .unknownCurrency(currencyCode) }
        try self.init(amount: text, currency: currency)
    }

    /// The amount as a plain decimal with exactly the currency's minor digits: `"10.20"`, `"-0.05"`,
    /// `"1500"` for JPY, `"1.005"` for KWD. This is the form used in JSON and in the database.
    public var amountText: String {
        // Written digit by digit into the string's own storage, from the end: every amount in a
        // JSON answer is written this way (nine in a checkout's), and building it from parts with
        // interpolation cost about 1.3 k instructions each.
        let fractionDigits = currency.minorUnitDigits
        let negative = minorUnits < 0
        var magnitude = minorUnits.magnitude
        var digitCount = 1
        var rest = magnitude / 10
        while rest > 0 {
            digitCount += 1
            rest /= 10
        }
        // "0.05": a zero before the point, and zeros after it up to the minor unit's digits.
        let shownDigits = Swift.max(digitCount, fractionDigits + 1)
        let length = (negative ? 1 : 0) + shownDigits + (fractionDigits > 0 ? 1 : 0)
        return String(unsafeUninitializedCapacity: length) { buffer in
            var position = length
            for index in 0..<shownDigits {
                if fractionDigits > 0, index == fractionDigits {
                    position -= 1
                    buffer[position] = UInt8(ascii: ".")
                }
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            }
            if negative { buffer[0] = UInt8(ascii: "-") }
            return length
        }
    }

    /// The exact amount as a `Decimal`, for display and for interoperating with Foundation.
    public var decimalAmount: Decimal {
        Decimal(
            sign: minorUnits < 0 ? .minus : .plus, exponent: -currency.minorUnitDigits,
            significand: Decimal(minorUnits.magnitude))
    }

    /// The amount formatted for people in `locale`: `€50.00` in `en_US`, `50,00 €` in `de_DE`.
    ///
    /// The symbol, its position, the separators and the spacing come from the locale's rules, never
    /// from string concatenation. Always shows the currency's full number of minor digits.
    public func formatted(locale: Locale) -> String {
        decimalAmount.formatted(
            .currency(code: currency.code).locale(locale).precision(.fractionLength(currency.minorUnitDigits)))
    }
}

extension Money: CustomStringConvertible {
    /// `10.20 EUR` — unambiguous, locale-independent, for logs and test failures.
    public var description: String { "\(amountText) \(currency.code)" }
}
