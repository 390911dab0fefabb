import CheckoutKit
import HTTPServer
import StoreAPI

/// `POST /api/checkout` and the shopper's orders.
struct CheckoutRoutes: Sendable {
    let sessions: Sessions
    let checkout: CheckoutService
    let orders: OrdersService

    func register(on router: inout Router) {
        router.on(
            Endpoints.checkout,
            sessions.authenticated { request, _, shopper in
                guard let header = request.headers[Endpoints.idempotencyKeyHeader] else {
                    throw HTTPError.idempotencyKeyRequired
                }
                guard let key = IdempotencyKey(rawValue: header) else { throw HTTPError.invalidIdempotencyKey }
                let body = try request.decodeJSON(CheckoutRequest.self)
                let answer = try await checkout.checkout(body, key: key, shopper: shopper)
                var response = Response.bytes(
                    Array(answer.body.utf8), contentType: "application/json; charset=utf-8",
                    status: HTTPStatus(code: answer.status))
                if answer.replayed { response.headers.replaceOrAdd(name: "Idempotent-Replayed", value: "true") }
                return response
            })
        router.on(
            Endpoints.orders,
            sessions.authenticated { _, _, shopper in
                try respond(try await orders.orders(of: shopper).map(OrderBody.init))
            })
        router.on(
            Endpoints.order,
            sessions.authenticated { _, context, shopper in
                guard let id = context.parameters["id"].flatMap(OrderID.init(parsing:)),
                    let order = try await orders.order(id, of: shopper)
                else { throw HTTPError.orderNotFound }
                return try respond(OrderBody(order))
            })
    }
}
