import CheckoutKit
import HTTPServer
import StoreAPI
import StoreDatabase

/// `POST /api/checkout` and the shopper's orders.
struct CheckoutRoutes: Sendable {
    let sessions: Sessions
    let checkout: CheckoutService
    let database: StoreDatabase

    func register(on router: inout Router) {
        router.post(
            "/api/checkout",
            sessions.authenticated { request, _, shopper in
                guard let header = request.headers["Idempotency-Key"] else {
                    throw APIError(
                        .badRequest, type: "idempotency_key_required",
                        message: "Send an Idempotency-Key header: one new key per payment attempt, reused on retries.")
                }
                guard let key = IdempotencyKey(rawValue: header) else {
                    throw APIError(
                        .badRequest, type: "invalid_idempotency_key",
                        message: "The Idempotency-Key must be 1 to 255 visible ASCII characters.")
                }
                let body = try request.decodeJSON(CheckoutRequest.self, using: StoreJSON.decoder)
                let answer = try await checkout.checkout(body, key: key, shopper: shopper)
                var response = Response.bytes(
                    Array(answer.body.utf8), contentType: "application/json; charset=utf-8",
                    status: HTTPStatus(code: answer.status))
                if answer.replayed { response.headers.replaceOrAdd(name: "Idempotent-Replayed", value: "true") }
                return response
            })
        router.get(
            "/api/orders",
            sessions.authenticated { _, _, shopper in
                try respond(try await database.orders.orders(for: shopper.id).map(OrderBody.init))
            })
        router.get(
            "/api/orders/{id}",
            sessions.authenticated { _, context, shopper in
                guard let id = context.parameters["id"],
                    let order = try await database.orders.order(OrderID(rawValue: id), for: shopper.id)
                else { throw APIError.orderNotFound }
                return try respond(OrderBody(order))
            })
    }
}
