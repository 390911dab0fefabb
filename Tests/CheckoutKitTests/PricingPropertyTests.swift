import CheckoutKit
import Testing

/// Properties that hold for every basket, checked over thousands of random ones from a seeded
/// generator (the seed is in the test name, so a failure can be replayed).
@Suite struct PricingPropertyTests {
    static let currencies: [Currency] = [.eur, .jpy, .kwd]

    struct RandomBasket {
        let lines: [BasketLine]
        let promotion: Promotion?
        let tier: Tier
        let policy: ShippingPolicy
    }

    static func randomBasket(in currency: Currency, using generator: inout SplitMix64) -> RandomBasket {
        func money(_ range: ClosedRange<Int64>) -> Money {
            Money(minorUnits: Int64.random(in: range, using: &generator), currency: currency)
        }
        let scale = currency.minorUnitsPerMajorUnit
        let lineCount = Int.random(in: 0...10, using: &generator)
        let lines = (0..<lineCount).map { index in
            BasketLine(
                productID: ProductID(Int64(index)), title: "P\(index)", unitPrice: money(1...(500 * scale)),
                quantity: quantity(Int.random(in: 1...10, using: &generator)))
        }
        var promotion: Promotion?
        switch Int.random(in: 0..<3, using: &generator) {
        case 0:
            promotion = nil
        case 1:
            promotion = Promotion(
                code: code("P"), kind: .percentOff(percent(Int.random(in: 1...100, using: &generator))),
                minimumSubtotal: money(0...(200 * scale)))
        default:
            promotion = Promotion(
                code: code("A"), kind: .amountOff(money(1...(300 * scale))),
                minimumSubtotal: money(0...(200 * scale)))
        }
        return RandomBasket(
            lines: lines, promotion: promotion, tier: Bool.random(using: &generator) ? .pro : .free,
            policy: ShippingPolicy(freeShippingThreshold: money(0...(100 * scale)), fee: money(0...(10 * scale))))
    }

    @Test("10,000 random baskets per currency (seed 20261202)", arguments: currencies)
    func pricingInvariants(currency: Currency) throws {
        var generator = SplitMix64(seed: 20_261_202)
        for _ in 0..<10_000 {
            let basket = Self.randomBasket(in: currency, using: &generator)
            let price = try Pricing.price(
                basket.lines, promotion: basket.promotion, tier: basket.tier, shipping: basket.policy)

            // Every amount in the basket's currency, at minor-unit precision by construction.
            for amount in [price.subtotal, price.discount, price.shipping, price.total] {
                #expect(amount.currency == currency)
            }
            // subtotal = Σ unit price × quantity.
            let expectedSubtotal = basket.lines.reduce(Int64(0)) {
                $0 + $1.unitPrice.minorUnits * Int64($1.quantity.value)
            }
            #expect(price.subtotal.minorUnits == expectedSubtotal)
            // total = subtotal − discount + shipping.
            #expect(
                price.total.minorUnits == price.subtotal.minorUnits - price.discount.minorUnits
                    + price.shipping.minorUnits)
            // 0 ≤ discount ≤ subtotal.
            #expect(price.discount.minorUnits >= 0)
            #expect(price.discount.minorUnits <= price.subtotal.minorUnits)
            // The discount never comes off shipping: the items part is never negative.
            #expect(price.total.minorUnits >= price.shipping.minorUnits)
            // Shipping rule.
            let freeShipping =
                basket.lines.isEmpty || basket.tier == .pro
                || price.subtotal.minorUnits >= basket.policy.freeShippingThreshold.minorUnits
            #expect(price.shipping == (freeShipping ? .zero(currency) : basket.policy.fee))
            #expect((price.amountToFreeShipping == nil) == freeShipping)
            if let missing = price.amountToFreeShipping {
                #expect(
                    missing.minorUnits == basket.policy.freeShippingThreshold.minorUnits - price.subtotal.minorUnits)
                #expect(missing.isPositive)
            }
            // Below the minimum: no discount and a notice; at or above: no notice.
            if let promotion = basket.promotion, !basket.lines.isEmpty {
                let below = price.subtotal.minorUnits < promotion.minimumSubtotal.minorUnits
                #expect((price.promotionNotice != nil) == below)
                if below { #expect(price.discount.isZero) }
            }
        }
    }

    @Test("percent discounts equal exact rational rounding half away from zero (seed 42)")
    func percentDiscountsMatchExactRounding() throws {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            let cents = Int64.random(in: 1...10_000_000, using: &generator)
            let percentage = Int.random(in: 1...100, using: &generator)
            let promotion = Promotion(
                code: code("P"), kind: .percentOff(percent(percentage)), minimumSubtotal: eur(0))
            let discount = try promotion.discount(on: eur(cents))
            // Exact: cents × p / 100; half away from zero ⇔ floor((2·cents·p + 100) / 200) for positives.
            let expected = (2 * cents * Int64(percentage) + 100) / 200
            #expect(discount.minorUnits == expected)
        }
    }

    @Test("fees equal exact rational rounding half to even (seed 7)")
    func feesMatchExactBankersRounding() throws {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let cents = Int64.random(in: 1...10_000_000, using: &generator)
            let points = Int.random(in: 0...10_000, using: &generator)
            let fees = FeePolicy(card: .percentage(basisPoints(points)), paymentLink: .none, qrCode: .none)
            let fee = try fees.fee(for: .card, on: eur(cents))
            let numerator = cents * Int64(points)
            var expected = numerator / 10_000
            let remainder = numerator % 10_000
            if remainder * 2 > 10_000 || (remainder * 2 == 10_000 && expected % 2 == 1) { expected += 1 }
            #expect(fee.minorUnits == expected)
        }
    }
}
