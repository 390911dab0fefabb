import CheckoutKit
import Testing

/// The two rounding rules, each on its own table, including the ties that tell them apart.
@Suite struct RoundingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let amount: Money
        let rate: Rate
        let halfAwayFromZero: Int64
        let halfToEven: Int64
        var testDescription: String { "\(rate) of \(amount)" }
    }

    static let cases: [Case] = [
        // 10 % of 44.95 = 4.495 → 4.50 either way (449.5 cents: 450 is even).
        Case(amount: eur(44_95), rate: percent(10), halfAwayFromZero: 4_50, halfToEven: 4_50),
        // 10 % of 44.85 = 4.485: half away → 4.49, half even → 4.48.
        Case(amount: eur(44_85), rate: percent(10), halfAwayFromZero: 4_49, halfToEven: 4_48),
        // 0.5 % of 1.00 = 0.005: 0.01 vs 0.00.
        Case(amount: eur(1_00), rate: basisPoints(50), halfAwayFromZero: 1, halfToEven: 0),
        // 0.5 % of 3.00 = 0.015: 0.02 both.
        Case(amount: eur(3_00), rate: basisPoints(50), halfAwayFromZero: 2, halfToEven: 2),
        // Negative amounts round symmetrically.
        Case(amount: eur(-44_85), rate: percent(10), halfAwayFromZero: -4_49, halfToEven: -4_48),
        Case(amount: eur(-1_00), rate: basisPoints(50), halfAwayFromZero: -1, halfToEven: 0),
        // Not a tie: ordinary rounding.
        Case(amount: eur(21_90), rate: percent(10), halfAwayFromZero: 2_19, halfToEven: 2_19),
        Case(amount: eur(33_33), rate: percent(15), halfAwayFromZero: 5_00, halfToEven: 5_00),
        Case(amount: eur(1), rate: basisPoints(80), halfAwayFromZero: 0, halfToEven: 0),
        // JPY has no minor digits: 10 % of ¥105 = 10.5.
        Case(amount: Money(minorUnits: 105, currency: .jpy), rate: percent(10), halfAwayFromZero: 11, halfToEven: 10),
        Case(amount: Money(minorUnits: 115, currency: .jpy), rate: percent(10), halfAwayFromZero: 12, halfToEven: 12),
        // KWD has three: 10 % of 1.005 = 0.1005.
        Case(
            amount: Money(minorUnits: 1005, currency: .kwd), rate: percent(10), halfAwayFromZero: 101, halfToEven: 100),
        Case(
            amount: Money(minorUnits: 1015, currency: .kwd), rate: percent(10), halfAwayFromZero: 102, halfToEven: 102),
        Case(amount: Money(minorUnits: 625, currency: .bhd), rate: basisPoints(80), halfAwayFromZero: 5, halfToEven: 5),
        // Whole amounts and the edges of a rate.
        Case(amount: eur(99_99), rate: percent(100), halfAwayFromZero: 99_99, halfToEven: 99_99),
        Case(amount: eur(99_99), rate: percent(0), halfAwayFromZero: 0, halfToEven: 0),
    ]

    @Test(arguments: cases)
    func halfAwayFromZero(_ example: Case) throws {
        let result = try example.amount.portion(example.rate, rounding: .halfAwayFromZero)
        #expect(result == Money(minorUnits: example.halfAwayFromZero, currency: example.amount.currency))
    }

    @Test(arguments: cases)
    func halfToEven(_ example: Case) throws {
        let result = try example.amount.portion(example.rate, rounding: .halfToEven)
        #expect(result == Money(minorUnits: example.halfToEven, currency: example.amount.currency))
    }

    @Test func theRulesAreNamedForWhereTheyApply() {
        #expect(RoundingRule.promotion == .halfAwayFromZero)
        #expect(RoundingRule.paymentFee == .halfToEven)
    }

    @Test("a percentage promotion rounds 4.495 up to 4.50")
    func promotionRoundsHalfAway() throws {
        let promotion = Promotion(code: code("TEN"), kind: .percentOff(percent(10)), minimumSubtotal: eur(0))
        #expect(try promotion.discount(on: eur(44_95)) == eur(4_50))
        #expect(try promotion.discount(on: eur(44_85)) == eur(4_49))
    }

    @Test("a percentage fee rounds ties to even")
    func feeRoundsHalfToEven() throws {
        let fees = FeePolicy(card: .percentage(basisPoints(50)), paymentLink: .none, qrCode: .none)
        #expect(try fees.fee(for: .card, on: eur(1_00)) == eur(0))
        #expect(try fees.fee(for: .card, on: eur(3_00)) == eur(2))
    }

    @Test(arguments: [
        (0, "0 %"), (80, "0.8 %"), (25, "0.25 %"), (5, "0.05 %"), (1_000, "10 %"), (10_000, "100 %"), (1_250, "12.5 %"),
    ])
    func ratesDescribeThemselves(basisPoints points: Int, text: String) {
        #expect(basisPoints(points).description == text)
    }

    @Test func ratesOutsideZeroToHundredPercentDoNotExist() {
        #expect(Rate(percent: 101) == nil)
        #expect(Rate(percent: -1) == nil)
        #expect(Rate(basisPoints: 10_001) == nil)
    }
}

@Suite struct FeePolicyTests {
    struct Case: Sendable {
        let kind: PaymentMethod.Kind
        let total: Int64
        let fee: Int64
    }

    @Test(arguments: [
        Case(kind: .card, total: 125_00, fee: 1_00), Case(kind: .card, total: 1, fee: 0),
        Case(kind: .card, total: 45_00, fee: 36), Case(kind: .card, total: 26_85, fee: 21),  // 0.2148
        Case(kind: .card, total: 62_50, fee: 50), Case(kind: .card, total: 6_25, fee: 5),
        Case(kind: .card, total: 1_87, fee: 1),  // 0.01496 → 0.01
        Case(kind: .paymentLink, total: 100_00, fee: 25), Case(kind: .paymentLink, total: 1, fee: 25),
        Case(kind: .qrCode, total: 100_00, fee: 0), Case(kind: .qrCode, total: 4_95, fee: 0),
    ])
    func standardFees(_ example: Case) throws {
        let quote = try FeePolicy.standard.quote(for: example.kind, total: eur(example.total))
        #expect(quote.fee == eur(example.fee))
        #expect(quote.amountDue == eur(example.total + example.fee))
    }

    @Test func aFlatFeeInAnotherCurrencyIsATypedError() {
        #expect(throws: MoneyError.currencyMismatch(.usd, .eur)) {
            try FeePolicy.standard.fee(for: .paymentLink, on: Money(minorUnits: 100, currency: .usd))
        }
    }

    @Test func quotesListEveryMethodInOrder() throws {
        let quotes = try FeePolicy.standard.quotes(total: eur(125_00))
        #expect(quotes.map(\.kind) == [.card, .paymentLink, .qrCode])
        #expect(quotes.map(\.amountDue) == [eur(126_00), eur(125_25), eur(125_00)])
    }
}
