import CheckoutKit
import Testing

@Suite struct BasketTests {
    @Test(arguments: [0, 11, -1, 100, Int.min, Int.max])
    func quantitiesOutsideOneToTenDoNotExist(value: Int) {
        #expect(Quantity(value) == nil)
    }

    @Test func quantitiesStepWithinTheirBounds() {
        #expect(Quantity.one.decremented == nil)
        #expect(Quantity.maximum.incremented == nil)
        #expect(quantity(4).incremented == quantity(5))
        #expect(quantity(4).decremented == quantity(3))
    }

    @Test func addingAProductAlreadyInTheBasketAddsToItsLine() throws {
        var basket = try Basket(currency: .eur)
        try basket.add(Catalog.socks(2))
        try basket.add(Catalog.socks(3))
        #expect(basket.lines.count == 1)
        #expect(basket.line(for: ProductID(3))?.quantity == quantity(5))
    }

    @Test func addingBeyondTenIsRefusedAndChangesNothing() throws {
        var basket = try Basket(currency: .eur, lines: [Catalog.socks(8)])
        #expect(throws: BasketError.quantityOutOfRange(requested: 11)) { try basket.add(Catalog.socks(3)) }
        #expect(basket.line(for: ProductID(3))?.quantity == quantity(8))
    }

    @Test func settingAQuantityAddsOrReplaces() throws {
        let rating = try #require(Rating(tenths: 42, count: 10))
        let cap = Product(
            id: ProductID(2), title: "Cap", description: "", category: "clothing", price: eur(21_90),
            imagePath: "/images/cap.svg", rating: rating, stock: 5)
        var basket = try Basket(currency: .eur)
        try basket.setQuantity(quantity(3), of: cap)
        try basket.setQuantity(quantity(1), of: cap)
        #expect(basket.lines == [BasketLine(product: cap, quantity: .one)])
    }

    @Test func removingALineIsItsOwnAction() throws {
        var basket = try Basket(currency: .eur, lines: [Catalog.cap, Catalog.waterBottle])
        basket.remove(ProductID(2))
        #expect(basket.lines.map(\.productID) == [ProductID(1)])
        basket.remove(ProductID(99))
        #expect(basket.lines.count == 1)
    }

    @Test func aBasketHasOneCurrency() throws {
        let dollars = BasketLine(
            productID: ProductID(9), title: "Import", unitPrice: Money(minorUnits: 100, currency: .usd),
            quantity: .one)
        var basket = try Basket(currency: .eur)
        #expect(throws: BasketError.currencyMismatch(basket: .eur, line: .usd)) { try basket.add(dollars) }
        #expect(basket.isEmpty)
    }

    @Test func emptyingClearsLinesAndCode() throws {
        var basket = try Basket(currency: .eur, lines: [Catalog.cap], promotionCode: code("RUN10"))
        basket.empty()
        #expect(basket.isEmpty)
        #expect(basket.promotionCode == nil)
    }

    @Test func pricingABasketInAnotherCurrencyThanThePolicyIsATypedError() throws {
        let basket = try Basket(currency: .usd)
        #expect(throws: MoneyError.currencyMismatch(.usd, .eur)) {
            try Pricing.price(basket, promotion: nil, tier: .free, shipping: .standard)
        }
    }
}
