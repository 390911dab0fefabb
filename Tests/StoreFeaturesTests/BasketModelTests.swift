import CheckoutKit
import StoreAPI
import StoreClient
import StoreFeatures
import Testing

/// docs/BEHAVIOUR.md §10, the basket: loading, lines, totals, the promotion code and the method picker.
@MainActor
@Suite struct BasketModelTests {
    let basket = FakeBasketClient()
    let checkout = FakeCheckoutClient()

    func loadedModel(_ server: ServerBasket) async -> BasketModel {
        let model = BasketModel(basket: basket, checkout: checkout, locale: enUS)
        basket.onBasket = { .success(server.body) }
        await model.task()
        return model
    }

    @Test("loading, then the basket; a failed load offers Try again")
    func loads() async {
        let model = BasketModel(basket: basket, checkout: checkout, locale: enUS)
        basket.onBasket = {
            #expect(model.state == .loading)
            return .failure(.unavailable)
        }
        await model.task()
        #expect(model.state == .failed(message: StoreClientError.unavailable.message))

        let server = ServerBasket([(Catalog.cap, 1)])
        basket.onBasket = { .success(server.body) }
        await model.tryAgainButtonTapped()
        #expect(model.basket == server.body)
    }

    @Test("an empty basket says so and cannot be paid")
    func emptyBasket() async {
        let model = await loadedModel(ServerBasket())
        #expect(model.isEmpty)
        #expect(!model.canPay)
        model.payButtonTapped()
        #expect(model.confirmationQuestion == nil)
    }

    @Test("€50.00 ships free: 10.20 + 21.90 + 2 × 8.95")
    func fiftyShipsFree() async {
        let model = await loadedModel(ServerBasket([(Catalog.waterBottle, 1), (Catalog.cap, 1), (Catalog.socks, 2)]))
        #expect(model.basket?.subtotal == eur(50_00))
        #expect(model.basket?.shipping == eur(0))
        #expect(model.basket?.total == eur(50_00))
        #expect(model.freeShippingHint == nil)
    }

    @Test("one cap: shipping €4.95, total €26.85, and the hint €28.10 more for free shipping")
    func oneCap() async {
        let model = await loadedModel(ServerBasket([(Catalog.cap, 1)]))
        #expect(model.basket?.shipping == eur(4_95))
        #expect(model.basket?.total == eur(26_85))
        #expect(model.freeShippingHint == "€28.10 more for free shipping")
    }

    @Test("GIFT25 on €21.90: discount €21.90, shipping €4.95, total €4.95")
    func gift25() async {
        var server = ServerBasket([(Catalog.cap, 1)])
        let model = await loadedModel(server)
        basket.onApplyPromotion = { code in
            #expect(code == "gift25")
            server.promotion = Promotions.gift25
            return .success(server.body)
        }
        model.promoCode = " gift25 "
        await model.applyPromoButtonTapped()
        #expect(model.basket?.discount == eur(21_90))
        #expect(model.basket?.shipping == eur(4_95))
        #expect(model.basket?.total == eur(4_95))
        #expect(model.basket?.promotion?.code == "GIFT25")
        #expect(model.promoCode == "")
        #expect(model.promoError == nil)
    }

    @Test("an unknown code: \"That code isn't valid.\", the basket unchanged")
    func invalidCode() async {
        let server = ServerBasket([(Catalog.cap, 1)])
        let model = await loadedModel(server)
        basket.onApplyPromotion = { _ in
            .failure(.invalid(type: "invalid_promotion", message: "That code isn't valid.", field: "code"))
        }
        model.promoCode = "NOPE"
        await model.applyPromoButtonTapped()
        #expect(model.promoError == "That code isn't valid.")
        #expect(model.promoCode == "NOPE")
        #expect(model.basket == server.body)
    }

    @Test("removing the code")
    func removeCode() async {
        var server = ServerBasket([(Catalog.cap, 1)], promotion: Promotions.gift25)
        let model = await loadedModel(server)
        basket.onRemovePromotion = {
            server.promotion = nil
            return .success(server.body)
        }
        await model.removePromoButtonTapped()
        #expect(model.basket?.promotion == nil)
        #expect(model.basket?.total == eur(26_85))
    }

    @Test("steppers move within 1…10 and are disabled at the bounds")
    func steppers() async throws {
        var server = ServerBasket([(Catalog.cap, 1), (Catalog.socks, 10)])
        let model = await loadedModel(server)
        basket.onSetQuantity = { quantity, id in
            server.set(quantity, of: id)
            return .success(server.body)
        }
        let cap = try #require(model.basket?.items.first)
        let socks = try #require(model.basket?.items.last)
        #expect(!model.canDecrement(cap))
        #expect(model.canIncrement(cap))
        #expect(model.canDecrement(socks))
        #expect(!model.canIncrement(socks))

        await model.decrementButtonTapped(line: cap)  // disabled: nothing sent
        await model.incrementButtonTapped(line: socks)  // disabled: nothing sent
        await model.incrementButtonTapped(line: cap)
        await model.decrementButtonTapped(line: socks)
        #expect(basket.changes == ["set 2 ×2", "set 3 ×9"])
        #expect(model.basket?.items.map(\.quantity) == [2, 9])
    }

    @Test("removing a line")
    func removeLine() async throws {
        var server = ServerBasket([(Catalog.cap, 1), (Catalog.socks, 2)])
        let model = await loadedModel(server)
        basket.onRemoveLine = { id in
            server.remove(id)
            return .success(server.body)
        }
        let cap = try #require(model.basket?.items.first)
        await model.removeButtonTapped(line: cap)
        #expect(model.basket?.items.map(\.productID) == [3])
    }

    @Test("a refused change says why and keeps the basket shown")
    func refusedChange() async throws {
        let server = ServerBasket([(Catalog.cap, 3)])
        let model = await loadedModel(server)
        basket.onSetQuantity = { _, _ in .failure(.outOfStock(message: "Only 3 left in stock.")) }
        let cap = try #require(model.basket?.items.first)
        await model.incrementButtonTapped(line: cap)
        #expect(model.alert == .changeFailed(message: "Only 3 left in stock."))
        #expect(model.basket == server.body)
        #expect(model.canEdit)
    }

    @Test("the method picker shows each method's fee and amount due on €26.85")
    func methodPicker() async throws {
        let model = await loadedModel(ServerBasket([(Catalog.cap, 1)]))
        #expect(
            model.paymentOptions == [
                PaymentQuote(kind: .card, fee: eur(21), amountDue: eur(27_06)),
                PaymentQuote(kind: .paymentLink, fee: eur(25), amountDue: eur(27_10)),
                PaymentQuote(kind: .qrCode, fee: eur(0), amountDue: eur(26_85)),
            ])
        #expect(model.selectedMethod == .card(try CardToken("tok_visa")))
        model.paymentMethodSelected(.paymentLink)
        #expect(model.selectedOption?.amountDue == eur(27_10))
    }

    @Test("the sandbox cards are offered by name")
    func sandboxCards() {
        #expect(
            BasketModel.sandboxCardTokens.map(\.rawValue) == [
                "tok_visa", "tok_mastercard", "tok_chargeDeclined", "tok_insufficientFunds", "tok_timeout",
                "tok_unavailable", "tok_refundTimeout", "tok_refundFail", "tok_slow",
            ])
    }
}
