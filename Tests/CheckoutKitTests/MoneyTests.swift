import CheckoutKit
import Foundation
import Testing

@Suite struct MoneyTests {
    @Test func currenciesKnowTheirMinorUnits() {
        #expect(Currency(code: "EUR")?.minorUnitDigits == 2)
        #expect(Currency(code: "USD")?.minorUnitDigits == 2)
        #expect(Currency(code: "GBP")?.minorUnitDigits == 2)
        #expect(Currency(code: "JPY")?.minorUnitDigits == 0)
        #expect(Currency(code: "KWD")?.minorUnitDigits == 3)
        #expect(Currency(code: "BHD")?.minorUnitDigits == 3)
        #expect(Currency(code: "XXX") == nil)
        #expect(Currency(code: "eur") == nil)
    }

    @Test func addingAndSubtractingIsExact() throws {
        #expect(try eur(10_20) + eur(21_90) == eur(32_10))
        #expect(try eur(5_00) - eur(7_25) == eur(-2_25))
        #expect(try eur(8_95) * 2 == eur(17_90))
        #expect(try Money.sum([eur(1), eur(2), eur(3)], in: .eur) == eur(6))
    }

    @Test func mixingCurrenciesIsATypedError() {
        let yen = Money(minorUnits: 100, currency: .jpy)
        #expect(throws: MoneyError.currencyMismatch(.eur, .jpy)) { try eur(100) + yen }
        #expect(throws: MoneyError.currencyMismatch(.eur, .jpy)) { try eur(100) - yen }
        #expect(throws: MoneyError.currencyMismatch(.eur, .jpy)) { try eur(100) < yen }
        #expect(throws: MoneyError.currencyMismatch(.eur, .jpy)) { try Money.sum([eur(1), yen], in: .eur) }
        // Equality is allowed: different currencies are simply not equal.
        #expect(eur(100) != Money(minorUnits: 100, currency: .usd))
    }

    @Test func overflowIsATypedErrorNotACrash() {
        let huge = Money(minorUnits: .max, currency: .eur)
        #expect(throws: MoneyError.overflow) { try huge + eur(1) }
        #expect(throws: MoneyError.overflow) { try Money(minorUnits: .min, currency: .eur) - eur(1) }
        #expect(throws: MoneyError.overflow) { try huge * 2 }
        #expect(throws: MoneyError.overflow) { try huge.portion(percent(10), rounding: .promotion) }
    }

    @Test(arguments: [
        (eur(10_20), "10.20"), (eur(5), "0.05"), (eur(-5), "-0.05"), (eur(0), "0.00"), (eur(-1_00), "-1.00"),
        (Money(minorUnits: 1500, currency: .jpy), "1500"), (Money(minorUnits: 1005, currency: .kwd), "1.005"),
        (Money(minorUnits: 7, currency: .bhd), "0.007"),
        (Money(minorUnits: .min, currency: .eur), "-92233720368547758.08"),
        (Money(minorUnits: .max, currency: .eur), "92233720368547758.07"),
        (Money(minorUnits: .min, currency: .jpy), "-9223372036854775808"),
        (Money(minorUnits: -1005, currency: .kwd), "-1.005"), (Money(minorUnits: 0, currency: .kwd), "0.000"),
        (Money(minorUnits: 0, currency: .jpy), "0"), (Money(minorUnits: -7, currency: .jpy), "-7"),
        (eur(100_000_000_000_000), "1000000000000.00"),
    ])
    func amountTextHasExactlyTheMinorDigits(money: Money, text: String) {
        #expect(money.amountText == text)
    }

    @Test(arguments: [
        ("10.20", Currency.eur, Int64(10_20)), ("10.2", .eur, 10_20), ("10", .eur, 10_00), ("0.05", .eur, 5),
        ("-0.05", .eur, -5), ("1500", .jpy, 1500), ("1.005", .kwd, 1005), ("0", .eur, 0),
        ("1000000000000.00", .eur, 100_000_000_000_000),
    ])
    func parsingAcceptsPlainDecimals(text: String, currency: Currency, minorUnits: Int64) throws {
        #expect(try Money(amount: text, currency: currency) == Money(minorUnits: minorUnits, currency: currency))
    }

    @Test(arguments: [
        ("4.495", Currency.eur, MoneyParseError.tooManyFractionDigits(allowed: 2)),
        ("10.5", .jpy, .tooManyFractionDigits(allowed: 0)), ("1.0005", .kwd, .tooManyFractionDigits(allowed: 3)),
        ("", .eur, .notADecimal), ("-", .eur, .notADecimal), ("1e3", .eur, .notADecimal), ("+1.00", .eur, .notADecimal),
        (" 1.00", .eur, .notADecimal), ("1.00 ", .eur, .notADecimal), ("1,00", .eur, .notADecimal),
        ("1,000.00", .eur, .notADecimal), (".5", .eur, .notADecimal), ("5.", .eur, .notADecimal),
        ("007", .eur, .notADecimal), ("NaN", .eur, .notADecimal), ("١٠", .eur, .notADecimal),
        ("1000000000001", .eur, .outOfRange), ("99999999999999999999", .eur, .outOfRange),
    ])
    func parsingRejectsAnythingItWouldHaveToGuess(text: String, currency: Currency, error: MoneyParseError) {
        #expect(throws: error) { try Money(amount: text, currency: currency) }
    }

    @Test func parsingByCodeRejectsUnknownCurrencies() {
        #expect(throws: MoneyParseError.unknownCurrency("XYZ")) { try Money(amount: "1.00", currencyCode: "XYZ") }
        #expect(throws: Never.self) { try Money(amount: "1.00", currencyCode: "GBP") }
    }

    @Test func textRoundTripsForEveryKnownCurrency() throws {
        var generator = SplitMix64(seed: 7)
        for currency in Currency.known {
            for _ in 0..<500 {
                let money = Money(
                    minorUnits: Int64.random(in: -10_000_000...10_000_000, using: &generator), currency: currency)
                #expect(try Money(amount: money.amountText, currency: currency) == money)
            }
            // Each count of digits, around the point and the padding.
            var power: Int64 = 1
            for _ in 0..<12 {
                for minorUnits in [power - 1, power, power + 1, -power] {
                    let money = Money(minorUnits: minorUnits, currency: currency)
                    #expect(try Money(amount: money.amountText, currency: currency) == money)
                }
                power *= 10
            }
        }
    }

    @Test func decimalAmountIsExact() {
        #expect(eur(10_20).decimalAmount == Decimal(string: "10.20"))
        #expect(Money(minorUnits: -1005, currency: .kwd).decimalAmount == Decimal(string: "-1.005"))
        #expect(Money(minorUnits: 1500, currency: .jpy).decimalAmount == Decimal(1500))
    }

    @Test func formattingFollowsTheLocale() {
        #expect(eur(50_00).formatted(locale: Locale(identifier: "en_US")) == "€50.00")
        #expect(eur(50_00).formatted(locale: Locale(identifier: "de_DE")) == "50,00\u{00A0}€")
        #expect(eur(1_234_56).formatted(locale: Locale(identifier: "de_DE")) == "1.234,56\u{00A0}€")
        #expect(Money(minorUnits: 1500, currency: .jpy).formatted(locale: Locale(identifier: "en_US")) == "¥1,500")
        #expect(
            Money(minorUnits: 1005, currency: .kwd).formatted(locale: Locale(identifier: "en_US")).hasSuffix("1.005"))
        #expect(Money(minorUnits: 9_99, currency: .usd).formatted(locale: Locale(identifier: "en_US")) == "$9.99")
    }
}
