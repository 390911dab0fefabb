import CheckoutKit
import HTTPServer
import StoreAPI
import StoreServices

/// The shopper's basket: read it, set or remove lines, apply or remove a promotion. Each change
/// answers with the basket as it now is.
struct BasketRoutes: Sendable {
    let baskets: BasketService

    func register(on routes: inout RouteTable) {
        routes.shopper(Endpoints.basket) { _, caller in try await basket(caller.shopper) }
        routes.shopper(Endpoints.setQuantity) { request, caller in
            let id = try caller.parameter(ProductID.self)
            let body = try request.decodeJSON(SetQuantityRequest.self)
            guard let quantity = Quantity(body.quantity) else { throw HTTPError.invalidQuantity() }
            try await baskets.setQuantity(quantity, of: id, for: caller.shopper)
            return try await basket(caller.shopper)
        }
        routes.shopper(Endpoints.removeLine) { _, caller in
            try await baskets.removeLine(try caller.parameter(ProductID.self), for: caller.shopper)
            return try await basket(caller.shopper)
        }
        routes.shopper(Endpoints.applyPromotion) { request, caller in
            let body = try request.decodeJSON(ApplyPromotionRequest.self)
            try await baskets.applyPromotion(body.code, for: caller.shopper)
            return try await basket(caller.shopper)
        }
        routes.shopper(Endpoints.removePromotion) { _, caller in
            try await baskets.removePromotion(for: caller.shopper)
            return try await basket(caller.shopper)
        }
    }

    private func basket(_ shopper: Shopper) async throws -> Response {
        try respond(try await baskets.body(for: shopper))
    }
}
