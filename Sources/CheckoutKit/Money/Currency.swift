/// An ISO 4217 currency the store can price in, with its number of minor-unit digits.
///
/// Only currencies whose exponent the store knows can exist: an amount in an unknown currency
/// could not be held exactly, so ``init(code:)`` refuses it instead of guessing.
public struct Currency: Hashable, Sendable {
    /// The three-letter ISO 4217 code, e.g. `EUR`.
    public let code: String
    /// How many decimal digits the minor unit has: 2 for EUR (cents), 0 for JPY, 3 for KWD.
    public let minorUnitDigits: Int

    private init(uncheckedCode code: String, minorUnitDigits: Int) {
        self.code = code
        self.minorUnitDigits = minorUnitDigits
    }

    /// The currency with the ISO 4217 `code` (case-sensitive, upper case), or `nil` when the store
    /// does not know it.
    public init?(code: String) {
        guard let known = Currency.known.first(where: { $0.code == code }) else { return nil }
        self = known
    }

    public static let eur = Currency(uncheckedCode: "EUR", minorUnitDigits: 2)
    public static let usd = Currency(uncheckedCode: "USD", minorUnitDigits: 2)
    public static let gbp = Currency(uncheckedCode: "GBP", minorUnitDigits: 2)
    public static let chf = Currency(uncheckedCode: "CHF", minorUnitDigits: 2)
    public static let sek = Currency(uncheckedCode: "SEK", minorUnitDigits: 2)
    public static let jpy = Currency(uncheckedCode: "JPY", minorUnitDigits: 0)
    public static let krw = Currency(uncheckedCode: "KRW", minorUnitDigits: 0)
    public static let kwd = Currency(uncheckedCode: "KWD", minorUnitDigits: 3)
    public static let bhd = Currency(uncheckedCode: "BHD", minorUnitDigits: 3)

    /// Every currency the store can hold amounts in.
    public static let known: [Currency] = [.eur, .usd, .gbp, .chf, .sek, .jpy, .krw, .kwd, .bhd]

    /// How many minor units make one major unit (100 for EUR, 1 for JPY, 1000 for KWD).
    public var minorUnitsPerMajorUnit: Int64 {
        var factor: Int64 = 1
        for _ in 0..<minorUnitDigits { factor *= 10 }
        return factor
    }
}

extension Currency: CustomStringConvertible {
    public var description: String { code }
}
