import CheckoutKit
import HTTPServer
import StoreServices
import StoreViews

/// The basket's page and its forms: add a product, change or remove a line, apply or remove a
/// promotion code.
struct BasketPages: Sendable {
    let storefront: Storefront

    func register(on routes: inout RouteTable) {
        routes.page(.get, StorePaths.basket) { request, _ in try await basketPage(request) }
        routes.page(.post, StorePaths.basketItems, storefront.form(addToBasket))
        routes.page(.post, StorePaths.basketItemPattern, storefront.form(updateLine))
        routes.page(.post, StorePaths.removeBasketItemPattern, storefront.form(removeLine))
        routes.page(.post, StorePaths.promotion, storefront.form(applyPromotion))
        routes.page(.post, StorePaths.removePromotion, storefront.form(removePromotion))
    }

    private func basketPage(_ request: Request) async throws -> Response {
        let visit = try await storefront.visit(request)
        var promoCode = BasketPage.PromoCode()
        if let basket = visit.basket {
            promoCode.applied = basket.promotion?.code.rawValue ?? basket.unusableCode?.rawValue
            promoCode.notice = basket.price.promotionNotice
            if let notice = basket.unusableCodeNotice { promoCode.error = notice }
        }
        if case .promotionInvalid(let typed) = visit.status {
            promoCode.error = Storefront.promotionCodeRefused
            promoCode.typed = typed
        }
        let page = BasketPage(
            lines: storefront.lineItems(visit.basket), totals: storefront.totals(visit), promoCode: promoCode)
        return visit.respond(StorePages.basket(page, context: visit.context))
    }

    private func addToBasket(_ form: FormVisit) async throws -> Response {
        let back = Storefront.safeReturnPath(form.value(FormFields.returnTo)) ?? StorePaths.catalog
        guard let id = form.value(FormFields.productID).flatMap(ProductID.init(parsing:)) else {
            throw HTTPError.productNotFound
        }
        let wanted = form.value(FormFields.quantity).flatMap { Int($0) } ?? 1
        let current = try await storefront.baskets.priced(form.shopper).lines.first { $0.productID == id }?.quantity
        guard let added = Quantity(wanted) else { return form.redirect(back, .updated(id)) }
        let quantity = current.map { $0.merged(with: added).quantity } ?? added
        return try await change(form, back: back, product: id, to: quantity, status: .added(id))
    }

    private func updateLine(_ form: FormVisit) async throws -> Response {
        let id = try form.parameter(ProductID.self)
        guard let quantity = form.value(FormFields.quantity).flatMap({ Int($0) }).flatMap(Quantity.init) else {
            return form.redirect(StorePaths.basket, .updated(id))
        }
        return try await change(form, back: StorePaths.basket, product: id, to: quantity, status: .updated(id))
    }

    private func change(
        _ form: FormVisit, back: String, product id: ProductID, to quantity: Quantity, status: WebStatus
    ) async throws -> Response {
        do {
            try await storefront.baskets.setQuantity(quantity, of: id, for: form.shopper)
        } catch BasketError.insufficientStock(let available) {
            return form.redirect(back, .notEnoughStock(id, available: available))
        } catch BasketError.unknownProduct {
            throw HTTPError.productNotFound
        }
        return form.redirect(back, status)
    }

    private func removeLine(_ form: FormVisit) async throws -> Response {
        let id = try form.parameter(ProductID.self)
        try await storefront.baskets.removeLine(id, for: form.shopper)
        return form.redirect(StorePaths.basket, .removed(id))
    }

    private func applyPromotion(_ form: FormVisit) async throws -> Response {
        let typed = form.value(FormFields.code) ?? ""
        do {
            try await storefront.baskets.applyPromotion(typed, for: form.shopper)
        } catch BasketError.invalidPromotion {
            return form.redirect(StorePaths.basket, .promotionInvalid(typed: typed))
        }
        return form.redirect(StorePaths.basket, .promotionApplied)
    }

    private func removePromotion(_ form: FormVisit) async throws -> Response {
        try await storefront.baskets.removePromotion(for: form.shopper)
        return form.redirect(StorePaths.basket, .promotionRemoved)
    }
}
