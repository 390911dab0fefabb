import CheckoutKit
import HTTPServer
import StoreAPI
import StoreServices
import StoreViews

/// Checking out: the method, the review with the minted idempotency key, and the pay form, which
/// pays once whatever the clicks.
struct CheckoutPages: Sendable {
    let storefront: Storefront
    let checkout: CheckoutService

    func register(on routes: inout RouteTable) {
        routes.page(.get, StorePaths.checkout) { request, _ in try await checkoutPage(request) }
        routes.page(.get, StorePaths.checkoutReview) { request, _ in try await reviewPage(request) }
        routes.page(.post, StorePaths.pay, storefront.form(pay))
    }

    private func checkoutPage(_ request: Request) async throws -> Response {
        let visit = try await storefront.visit(request)
        guard let basket = visit.basket, !basket.lines.isEmpty else { return Storefront.redirect(StorePaths.basket) }
        let method = request.query(FormFields.method).flatMap(PaymentMethod.Kind.init(rawValue:)) ?? .card
        let page = CheckoutPage(
            lines: storefront.lineItems(basket), totals: BasketTotals(basket.price),
            options: try storefront.options(basket),
            selectedMethod: method, selectedCard: request.query(FormFields.card))
        return visit.respond(StorePages.checkout(page, context: visit.context))
    }

    /// Review and pay. Mints the payment's idempotency key — or keeps the one in the address after
    /// a payment that may not have gone through, so paying again settles that same attempt.
    private func reviewPage(_ request: Request) async throws -> Response {
        let visit = try await storefront.visit(request)
        guard let basket = visit.basket, !basket.lines.isEmpty else { return Storefront.redirect(StorePaths.basket) }
        guard let method = request.query(FormFields.method).flatMap(PaymentMethod.Kind.init(rawValue:)) else {
            return Storefront.redirect(StorePaths.checkout)
        }
        var card: TestCard?
        if method == .card {
            guard let token = request.query(FormFields.card),
                let known = TestCard.sandbox.first(where: { $0.token == token })
            else { return Storefront.redirect(StorePaths.checkout(method: .card, card: nil)) }
            card = known
        }
        guard let option = try storefront.options(basket).first(where: { $0.kind == method }) else {
            return Storefront.redirect(StorePaths.checkout)
        }
        let key =
            request.query(FormFields.idempotencyKey).flatMap(IdempotencyKey.init(rawValue:))?.rawValue
            ?? IdempotencyKey.random().rawValue
        let page = CheckoutReviewPage(
            lines: storefront.lineItems(basket), totals: BasketTotals(basket.price), option: option, card: card,
            idempotencyKey: key, problem: problem(visit.status, basket: basket))
        return visit.respond(StorePages.checkoutReview(page, context: visit.context))
    }

    /// Pays with the key the review page minted: a second submit of the same form (a double click,
    /// a resubmit after going back) replays the first answer and shows the same receipt.
    private func pay(_ form: FormVisit) async throws -> Response {
        let methodName = form.value(FormFields.method) ?? ""
        let card = form.value(FormFields.card)
        let kind = PaymentMethod.Kind(rawValue: methodName)
        let again = { (key: String?) -> String in
            var parameters = [(FormFields.method, methodName)]
            if kind == .card, let card { parameters.append((FormFields.card, card)) }
            if let key { parameters.append((FormFields.idempotencyKey, key)) }
            return StorePaths.checkoutReview + URLText.query(parameters)
        }
        guard let key = form.value(FormFields.idempotencyKey).flatMap(IdempotencyKey.init(rawValue:)),
            let kind, let expectedText = form.value(FormFields.expectedTotal),
            let expected = try? Money(amount: expectedText, currency: storefront.configuration.shipping.currency)
        else { return form.redirect(StorePaths.checkout, nil) }
        do {
            let method = try CheckoutRequest(
                paymentMethod: PaymentMethodBody(type: kind.rawValue, token: kind == .card ? card : nil),
                expectedTotal: expected
            ).validatedPaymentMethod()
            let result = try await payOnce(method: method, expected: expected, key: key, shopper: form.shopper)
            switch result.outcome {
            case .paid(let order): return form.redirect(StorePaths.order(order.rawValue), nil)
            case .declined(let reason): return form.redirect(again(nil), .declined(reason))
            }
        } catch let error as CheckoutError {
            switch error {
            case .declined(let reason): return form.redirect(again(nil), .declined(reason))
            case .unavailable: return form.redirect(again(key.rawValue), .unavailable)
            case .priceChanged: return form.redirect(again(nil), .priceChanged(previous: expected.amountText))
            case .outOfStock(let ids): return form.redirect(StorePaths.basket, .soldOut(ids))
            case .paymentInProgress: return form.redirect(again(key.rawValue), .paymentInProgress)
            case .emptyBasket: return form.redirect(StorePaths.basket, nil)
            default: return form.redirect(StorePaths.checkout, nil)
            }
        } catch IdempotencyError.inProgress {
            // The first submit of this form is still being paid and did not finish in time.
            return form.redirect(again(key.rawValue), .paymentInProgress)
        } catch is IdempotencyError {
            // The key was used for another basket: a fresh review.
            return form.redirect(again(nil), .paymentInProgress)
        }
    }

    /// Pays, and when the same form is being paid by an earlier submit (a double click), waits
    /// for that one's answer — up to 10 s — so this submit shows the same receipt, as the browser
    /// shows only the last answer.
    private func payOnce(
        method: PaymentMethod, expected: Money, key: IdempotencyKey, shopper: Shopper
    ) async throws -> CheckoutResult {
        for _ in 0..<50 {
            do {
                return try await checkout.checkout(method: method, expectedTotal: expected, key: key, shopper: shopper)
            } catch IdempotencyError.inProgress {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        return try await checkout.checkout(method: method, expectedTotal: expected, key: key, shopper: shopper)
    }

    private func problem(_ status: WebStatus?, basket: PricedBasket) -> CheckoutProblem? {
        switch status {
        case .declined(let reason): return .declined(reason)
        case .unavailable: return .unavailable
        case .paymentInProgress: return .paymentInProgress
        case .priceChanged(let previous):
            guard let total = try? Money(amount: previous, currency: basket.price.total.currency) else { return nil }
            return .priceChanged(previousTotal: total, newTotal: basket.price.total)
        default: return nil
        }
    }
}
