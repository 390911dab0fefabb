import CheckoutKit
import Foundation
import Testing

@Suite struct PromotionTests {
    @Test(arguments: [(" run10 ", "RUN10"), ("Gift25", "GIFT25"), ("\tbig20\n", "BIG20"), ("summer-24", "SUMMER-24")])
    func codesAreTrimmedAndUpperCased(typed: String, normalized: String) {
        #expect(PromotionCode(typed)?.rawValue == normalized)
    }

    @Test(arguments: ["", "   ", "RUN 10", "RUN10;DROP", "<script>", String(repeating: "A", count: 33), "ÄPFEL"])
    func textThatCannotBeACodeIsRejected(typed: String) {
        #expect(PromotionCode(typed) == nil)
    }

    @Test func theValidityWindowStartsInclusiveAndEndsExclusive() {
        let start = referenceDate
        let end = referenceDate.addingTimeInterval(3_600)
        let promotion = Promotion(
            code: code("WINDOW"), kind: .percentOff(percent(10)), minimumSubtotal: eur(0), startsAt: start, endsAt: end)
        #expect(promotion.availability(at: start.addingTimeInterval(-1)) == .notStarted)
        #expect(promotion.availability(at: start) == .available)
        #expect(promotion.availability(at: end.addingTimeInterval(-1)) == .available)
        #expect(promotion.availability(at: end) == .expired)
    }

    @Test func aUsageLimitIsUsedUpWhenReached() {
        var promotion = Promotion(
            code: code("FIVE"), kind: .percentOff(percent(5)), minimumSubtotal: eur(0), usageLimit: 5)
        promotion.timesUsed = 4
        #expect(promotion.availability(at: referenceDate) == .available)
        promotion.timesUsed = 5
        #expect(promotion.availability(at: referenceDate) == .usedUp)
        #expect(Promotions.run10.availability(at: referenceDate) == .available)
    }

    @Test func belowTheMinimumThereIsNoDiscountButANotice() throws {
        #expect(try Promotions.big20.discount(on: eur(99_99)) == eur(0))
        let notice = try #require(try Promotions.big20.notice(for: eur(99_99)))
        #expect(notice.amountMissing == eur(1))
        #expect(notice.message(locale: Locale(identifier: "en_US")) == "Add €0.01 more to use BIG20.")
        #expect(notice.message(locale: Locale(identifier: "de_DE")) == "Add 0,01\u{00A0}€ more to use BIG20.")
    }

    @Test("exactly at the minimum the discount applies")
    func atTheMinimum() throws {
        #expect(try Promotions.big20.discount(on: eur(100_00)) == eur(20_00))
        #expect(try Promotions.big20.notice(for: eur(100_00)) == nil)
    }

    @Test func anAmountOffNeverExceedsTheSubtotalAndNeverGoesNegative() throws {
        #expect(try Promotions.gift25.discount(on: eur(10_00)) == eur(10_00))
        #expect(try Promotions.gift25.discount(on: eur(30_00)) == eur(25_00))
        #expect(try Promotions.gift25.discount(on: eur(0)) == eur(0))
        let odd = Promotion(code: code("NEG"), kind: .amountOff(eur(-5_00)), minimumSubtotal: eur(0))
        #expect(try odd.discount(on: eur(30_00)) == eur(0))
    }

    @Test func aHundredPercentTakesEverythingOffTheItemsButNotShipping() throws {
        let free = Promotion(code: code("FREE"), kind: .percentOff(percent(100)), minimumSubtotal: eur(0))
        let price = try Pricing.price([Catalog.cap], promotion: free, tier: .free, shipping: .standard)
        #expect(price.discount == eur(21_90))
        #expect(price.total == eur(4_95))
    }

    @Test func aPromotionInAnotherCurrencyIsATypedError() {
        let dollars = Promotion(
            code: code("USD5"), kind: .amountOff(Money(minorUnits: 5_00, currency: .usd)),
            minimumSubtotal: Money(minorUnits: 0, currency: .usd))
        #expect(throws: MoneyError.currencyMismatch(.eur, .usd)) {
            try Pricing.price([Catalog.cap], promotion: dollars, tier: .free, shipping: .standard)
        }
    }
}

@Suite struct TierTests {
    let now = referenceDate

    @Test("rule 1: no expiration → free, whatever auto-renew says")
    func noExpirationIsFree() {
        #expect(SubscriptionFacts(expiresAt: nil, willAutoRenew: false).tier(at: now) == .free)
        #expect(SubscriptionFacts(expiresAt: nil, willAutoRenew: true).tier(at: now) == .free)
        #expect(SubscriptionFacts.none.tier(at: now) == .free)
    }

    @Test("rule 2: expiration strictly after now → Pro")
    func futureExpirationIsPro() {
        #expect(SubscriptionFacts(expiresAt: now.addingTimeInterval(1), willAutoRenew: false).tier(at: now) == .pro)
        #expect(
            SubscriptionFacts(expiresAt: now.addingTimeInterval(86_400 * 30), willAutoRenew: true).tier(at: now) == .pro
        )
    }

    @Test("rule 3: expiration passed, auto-renew on → Pro")
    func lapsedButRenewingIsPro() {
        #expect(
            SubscriptionFacts(expiresAt: now.addingTimeInterval(-86_400), willAutoRenew: true).tier(at: now) == .pro)
    }

    @Test("rule 4: expiration passed, auto-renew off → free")
    func lapsedIsFree() {
        #expect(SubscriptionFacts(expiresAt: now.addingTimeInterval(-1), willAutoRenew: false).tier(at: now) == .free)
    }

    @Test("an expiration exactly equal to now counts as passed")
    func exactBoundary() {
        #expect(SubscriptionFacts(expiresAt: now, willAutoRenew: false).tier(at: now) == .free)
        #expect(SubscriptionFacts(expiresAt: now, willAutoRenew: true).tier(at: now) == .pro)
    }

    @Test func thereAreOnlyTwoTiers() {
        #expect(Tier.allCases == [.free, .pro])
    }
}
