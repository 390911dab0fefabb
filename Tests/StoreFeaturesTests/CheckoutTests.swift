import CheckoutKit
import StoreAPI
import StoreClient
import StoreFeatures
import Testing

/// docs/BEHAVIOUR.md §5 "Never charge twice" and §10's checkout: the confirm step and one idempotency key per
/// attempt, as the basket model applies them.
@MainActor
@Suite struct CheckoutTests {
    let basket = FakeBasketClient()
    let checkout = FakeCheckoutClient()
    let keys = KeyMaker()
    let waits = Waits()

    static let unavailableMessage = "We couldn't confirm the payment. Retrying is safe — you won't be charged twice."
    static let declined = StoreClientError.declined(
        reason: .cardDeclined, message: "Your bank declined the payment. The card was declined.")

    /// A basket model showing one cap (total €26.85), keys `key-1`, `key-2`…, waits that return at once.
    func loadedModel(_ server: ServerBasket = ServerBasket([(Catalog.cap, 1)])) async -> BasketModel {
        let model = BasketModel(
            basket: basket, checkout: checkout, makeKey: { [keys] in keys.make() },
            sleep: { [waits] duration in await waits.wait(duration) }, locale: enUS)
        basket.onBasket = { .success(server.body) }
        await model.task()
        return model
    }

    /// Pay, then Yes on the confirm step.
    func pay(_ model: BasketModel) async {
        model.payButtonTapped()
        await model.confirmPaymentTapped()
    }

    @Test("Pay asks first: \"Pay €27.10?\" for a payment link; Yes sends the basket total as expected_total")
    func confirmStep() async {
        let model = await loadedModel()
        model.paymentMethodSelected(.paymentLink)
        model.payButtonTapped()
        #expect(model.confirmationQuestion == "Pay €27.10?")
        #expect(checkout.calls.isEmpty)

        checkout.answer([.success(order("ord_1"))])
        await model.confirmPaymentTapped()
        #expect(checkout.calls.map(\.request) == [CheckoutRequest(method: .paymentLink, expectedTotal: eur(26_85))])
    }

    @Test("No on the confirm step pays nothing")
    func cancelConfirm() async {
        let model = await loadedModel()
        model.payButtonTapped()
        model.cancelPaymentTapped()
        await model.confirmPaymentTapped()
        #expect(model.confirmationQuestion == nil)
        #expect(checkout.calls.isEmpty)
    }

    @Test("success shows the receipt and empties the basket")
    func success() async {
        let model = await loadedModel()
        var paid: [OrderBody] = []
        var baskets: [BasketBody] = []
        model.onPaid = { paid.append($0) }
        model.onBasketChanged = { baskets.append($0) }
        checkout.answer([.success(order("ord_1"))])
        await pay(model)
        #expect(model.destination == .receipt(order("ord_1")))
        #expect(model.isEmpty)
        #expect(paid == [order("ord_1")])
        #expect(baskets.last?.items.isEmpty == true)
        #expect(model.paymentFailure == nil)
    }

    @Test("Pay tapped twice while paying charges once")
    func payTappedTwice() async {
        let model = await loadedModel()
        checkout.onCheckout = { _, _ in
            // The shopper taps Pay, then Yes, again while the first payment is on its way.
            model.payButtonTapped()
            await model.confirmPaymentTapped()
            return .success(order("ord_1"))
        }
        await pay(model)
        #expect(checkout.calls.count == 1)
        #expect(keys.made.count == 1)
        #expect(model.destination == .receipt(order("ord_1")))
    }

    @Test("paying disables every edit: lines, code and method")
    func payingDisablesEdits() async throws {
        let model = await loadedModel()
        let line = try #require(model.basket?.items.first)
        checkout.onCheckout = { _, _ in
            #expect(model.isPaying)
            #expect(!model.canEdit)
            #expect(!model.canIncrement(line))
            #expect(!model.canPay)
            // None of these reaches the basket client (its fake would fail the test).
            await model.incrementButtonTapped(line: line)
            await model.removeButtonTapped(line: line)
            model.promoCode = "RUN10"
            await model.applyPromoButtonTapped()
            model.paymentMethodSelected(.qrCode)
            return .success(order("ord_1"))
        }
        await pay(model)
        #expect(basket.changes.isEmpty)
        #expect(model.selectedKind == .card)
    }

    @Test("a timeout then a retry: the same key and the same request")
    func timeoutThenRetry() async {
        let model = await loadedModel()
        checkout.answer([.failure(.unavailable), .success(order("ord_1"))])
        await pay(model)
        #expect(model.paymentFailureMessage == Self.unavailableMessage)
        #expect(model.destination == nil)

        await pay(model)
        #expect(checkout.keys.map(\.rawValue) == ["key-1", "key-1"])
        #expect(checkout.calls[0] == checkout.calls[1])
        #expect(model.destination == .receipt(order("ord_1")))
    }

    @Test("an answer that cannot be read is an unknown outcome: the retry reuses the key")
    func unreadableAnswer() async {
        let model = await loadedModel()
        checkout.answer([
            .failure(.unexpectedAnswer(status: 201, detail: "truncated JSON")), .success(order("ord_1")),
        ])
        await pay(model)
        #expect(model.paymentFailureMessage == Self.unavailableMessage)
        await pay(model)
        #expect(checkout.keys.map(\.rawValue) == ["key-1", "key-1"])
    }

    @Test("a decline then a retry: a new key")
    func declineThenRetry() async {
        let model = await loadedModel()
        checkout.answer([.failure(Self.declined), .success(order("ord_1"))])
        await pay(model)
        #expect(model.paymentFailureMessage == "Your bank declined the payment. The card was declined.")

        await pay(model)
        #expect(checkout.keys.map(\.rawValue) == ["key-1", "key-2"])
        #expect(model.destination == .receipt(order("ord_1")))
    }

    @Test("a quantity change after a failure is a new attempt: a new key, the message cleared")
    func quantityChangeAfterFailure() async throws {
        var server = ServerBasket([(Catalog.cap, 1)])
        let model = await loadedModel(server)
        checkout.answer([.failure(.unavailable), .success(order("ord_1"))])
        await pay(model)
        #expect(model.paymentFailureMessage != nil)

        basket.onSetQuantity = { quantity, id in
            server.set(quantity, of: id)
            return .success(server.body)
        }
        await model.incrementButtonTapped(line: try #require(model.basket?.items.first))
        #expect(model.paymentFailureMessage == nil)

        await pay(model)
        #expect(checkout.keys.map(\.rawValue) == ["key-1", "key-2"])
        #expect(checkout.calls.last?.request.expectedTotal == eur(48_75))
    }

    @Test("a method change after a failure is a new attempt: a new key, the message cleared")
    func methodChangeAfterFailure() async {
        let model = await loadedModel()
        checkout.answer([.failure(.unavailable), .success(order("ord_1"))])
        await pay(model)
        model.paymentMethodSelected(.qrCode)
        #expect(model.paymentFailureMessage == nil)
        await pay(model)
        #expect(checkout.keys.map(\.rawValue) == ["key-1", "key-2"])
        #expect(checkout.calls.last?.request.paymentMethod == PaymentMethodBody(type: "qr_code"))
    }

    @Test(
        "a payment still in progress: wait, then the same key again",
        arguments: [StoreClientError.paymentInProgress, .idempotencyInProgress])
    func inProgressWaitsAndRetries(error: StoreClientError) async {
        let model = await loadedModel()
        checkout.answer([.failure(error), .failure(error), .success(order("ord_1"))])
        await pay(model)
        #expect(checkout.keys.map(\.rawValue) == ["key-1", "key-1", "key-1"])
        #expect(waits.durations == [.seconds(1), .seconds(1)])
        #expect(model.destination == .receipt(order("ord_1")))
    }

    @Test("still in progress after every wait: the key is kept for the shopper's retry")
    func stillInProgress() async {
        let model = await loadedModel()
        let answers = Array(repeating: Result<OrderBody, StoreClientError>.failure(.paymentInProgress), count: 6)
        checkout.answer(answers + [.success(order("ord_1"))])
        await pay(model)
        #expect(checkout.calls.count == BasketModel.inProgressRetries + 1)
        #expect(model.paymentFailureMessage == StoreClientError.paymentInProgress.message)
        #expect(model.attempt.key?.rawValue == "key-1")

        await pay(model)
        #expect(Set(checkout.keys.map(\.rawValue)) == ["key-1"])
        #expect(model.destination == .receipt(order("ord_1")))
    }

    @Test("a changed price charges nothing, shows the basket as it now is, and the next try has a new key")
    func priceChanged() async {
        let model = await loadedModel()
        let message =
            "The price of your basket has changed to €35.80. Please check it and confirm again. You have not been charged."
        checkout.answer([.failure(.priceChanged(message: message)), .success(order("ord_1"))])
        let newServer = ServerBasket([(Catalog.cap, 1), (Catalog.socks, 1)])
        basket.onBasket = { .success(newServer.body) }
        await pay(model)
        #expect(model.paymentFailureMessage == message)
        #expect(model.basket == newServer.body)

        await pay(model)
        #expect(checkout.keys.map(\.rawValue) == ["key-1", "key-2"])
        #expect(checkout.calls.last?.request.expectedTotal == eur(35_80))
    }

    @Test("each failure has its message for people (docs/BEHAVIOUR.md §5)")
    func failureMessages() {
        #expect(StoreClientError.unavailable.paymentMessage == Self.unavailableMessage)
        #expect(Self.declined.paymentMessage.hasPrefix("Your bank declined the payment."))
        #expect(CheckoutError.declined(.insufficientFunds).message.hasPrefix("Your bank declined the payment."))
        #expect(!StoreClientError.unavailable.message.isEmpty)
        #expect(StoreClientError.unavailable.isOutcomeUnknown)
        #expect(!Self.declined.isOutcomeUnknown)
    }
}
