import CheckoutKit
import HTTPServer
import StoreAPI

/// The shopper's basket: read it, set or remove lines, apply or remove a promotion. Each change
/// answers with the basket as it now is.
struct BasketRoutes: Sendable {
    let sessions: Sessions
    let baskets: BasketService

    func register(on router: inout Router) {
        router.on(Endpoints.basket, sessions.authenticated { _, _, shopper in try await basket(shopper) })
        router.on(
            Endpoints.setQuantity,
            sessions.authenticated { request, context, shopper in
                guard let id = context.parameters["product_id"].flatMap(ProductID.init(parsing:)) else {
                    throw HTTPError.productNotFound
                }
                let body = try request.decodeJSON(SetQuantityRequest.self)
                guard let quantity = Quantity(body.quantity) else { throw HTTPError.invalidQuantity() }
                try await baskets.setQuantity(quantity, of: id, for: shopper)
                return try await basket(shopper)
            })
        router.on(
            Endpoints.removeLine,
            sessions.authenticated { _, context, shopper in
                guard let id = context.parameters["product_id"].flatMap(ProductID.init(parsing:)) else {
                    throw HTTPError.productNotFound
                }
                try await baskets.removeLine(id, for: shopper)
                return try await basket(shopper)
            })
        router.on(
            Endpoints.applyPromotion,
            sessions.authenticated { request, _, shopper in
                let body = try request.decodeJSON(ApplyPromotionRequest.self)
                try await baskets.applyPromotion(body.code, for: shopper)
                return try await basket(shopper)
            })
        router.on(
            Endpoints.removePromotion,
            sessions.authenticated { _, _, shopper in
                try await baskets.removePromotion(for: shopper)
                return try await basket(shopper)
            })
    }

    private func basket(_ shopper: Shopper) async throws -> Response {
        try respond(try await baskets.body(for: shopper))
    }
}
