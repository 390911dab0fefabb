import CheckoutKit
import Foundation
import Testing

/// Every worked case of docs/BEHAVIOUR.md §3–§5, one named test each.
@Suite("Worked cases of docs/BEHAVIOUR.md") struct WorkedCasesTests {
    let policy = ShippingPolicy.standard

    @Test("§3: 10.20 + 21.90 + 2 × 8.95 → subtotal 50.00, shipping 0.00, total 50.00")
    func basketAtTheFreeShippingThreshold() throws {
        let price = try Pricing.price(
            [Catalog.waterBottle, Catalog.cap, Catalog.socks(2)], promotion: nil, tier: .free, shipping: policy)
        #expect(price.subtotal == eur(50_00))
        #expect(price.discount == eur(0))
        #expect(price.shipping == eur(0))
        #expect(price.total == eur(50_00))
        #expect(price.amountToFreeShipping == nil)
    }

    @Test("§3: one item 21.90 → subtotal 21.90, shipping 4.95, total 26.85, 28.10 to free shipping")
    func singleCapPaysShipping() throws {
        let price = try Pricing.price([Catalog.cap], promotion: nil, tier: .free, shipping: policy)
        #expect(price.subtotal == eur(21_90))
        #expect(price.shipping == eur(4_95))
        #expect(price.total == eur(26_85))
        #expect(price.amountToFreeShipping == eur(28_10))
    }

    @Test("§4: the 50.00 basket with RUN10 → discount 5.00, shipping 0.00, total 45.00")
    func run10OnTheThresholdBasket() throws {
        let price = try Pricing.price(
            [Catalog.waterBottle, Catalog.cap, Catalog.socks(2)], promotion: Promotions.run10, tier: .free,
            shipping: policy)
        #expect(price.discount == eur(5_00))
        #expect(price.shipping == eur(0))
        #expect(price.total == eur(45_00))
    }

    @Test("§4: one item 21.90 with GIFT25 → discount 21.90, shipping 4.95, total 4.95")
    func gift25IsCappedAtTheSubtotal() throws {
        let price = try Pricing.price([Catalog.cap], promotion: Promotions.gift25, tier: .free, shipping: policy)
        #expect(price.discount == eur(21_90))
        #expect(price.shipping == eur(4_95))
        #expect(price.total == eur(4_95))
    }

    @Test("§4: below BIG20's minimum → no discount and the notice 'Add €78.10 more to use BIG20.'")
    func big20BelowItsMinimum() throws {
        let price = try Pricing.price([Catalog.cap], promotion: Promotions.big20, tier: .free, shipping: policy)
        #expect(price.discount == eur(0))
        #expect(price.promotionNotice?.amountMissing == eur(78_10))
        #expect(price.promotionNotice?.message(locale: Locale(identifier: "en_US")) == "Add €78.10 more to use BIG20.")
    }

    @Test("§5: card on 125.00 → fee 1.00")
    func cardFeeOn125() throws {
        #expect(try FeePolicy.standard.fee(for: .card, on: eur(125_00)) == eur(1_00))
    }

    @Test("§5: payment link on 100.00 → charged 100.25")
    func paymentLinkOn100() throws {
        let quote = try FeePolicy.standard.quote(for: .paymentLink, total: eur(100_00))
        #expect(quote.fee == eur(25))
        #expect(quote.amountDue == eur(100_25))
    }

    @Test("§5: card on 0.01 → fee 0.00")
    func cardFeeOnOneCent() throws {
        #expect(try FeePolicy.standard.fee(for: .card, on: eur(1)) == eur(0))
    }

    @Test("§5: QR code is free")
    func qrCodeIsFree() throws {
        #expect(try FeePolicy.standard.quote(for: .qrCode, total: eur(45_00)).amountDue == eur(45_00))
    }

    @Test("§6: a Pro member ships free whatever the subtotal")
    func proShipsFree() throws {
        let price = try Pricing.price([Catalog.cap], promotion: nil, tier: .pro, shipping: policy)
        #expect(price.shipping == eur(0))
        #expect(price.total == eur(21_90))
        #expect(price.amountToFreeShipping == nil)
    }

    @Test("§3: an empty basket ships free and has nothing to go to free shipping")
    func emptyBasket() throws {
        let price = try Pricing.price([], promotion: Promotions.run10, tier: .free, shipping: policy)
        #expect(price.total == eur(0))
        #expect(price.shipping == eur(0))
        #expect(price.amountToFreeShipping == nil)
        #expect(price.promotionNotice == nil)
    }

    @Test("§4: the free-shipping threshold looks at the subtotal before the discount")
    func thresholdIgnoresTheDiscount() throws {
        // 50.00 subtotal − 5.00 discount = 45.00 of items, still free shipping.
        let price = try Pricing.price(
            [Catalog.waterBottle, Catalog.cap, Catalog.socks(2)], promotion: Promotions.run10, tier: .free,
            shipping: policy)
        #expect(price.subtotal == eur(50_00))
        #expect(price.shipping == eur(0))
    }
}
