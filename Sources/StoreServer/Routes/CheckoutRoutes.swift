import CheckoutKit
import HTTPServer
import StoreAPI

/// `POST /api/checkout` and the shopper's orders.
struct CheckoutRoutes: Sendable {
    let checkout: CheckoutService
    let orders: OrdersService

    func register(on routes: inout RouteTable) {
        routes.shopper(Endpoints.checkout) { request, caller in
            guard let header = request.headers[Endpoints.idempotencyKeyHeader] else {
                throw HTTPError.idempotencyKeyRequired
            }
            guard let key = IdempotencyKey(rawValue: header) else { throw HTTPError.invalidIdempotencyKey }
            let body = try request.decodeJSON(CheckoutRequest.self)
            let answer = try await checkout.checkout(body, key: key, shopper: caller.shopper)
            var response = Response.bytes(
                Array(answer.body.utf8), contentType: "application/json; charset=utf-8",
                status: HTTPStatus(code: answer.status))
            if answer.replayed { response.headers.replaceOrAdd(name: "Idempotent-Replayed", value: "true") }
            return response
        }
        routes.shopper(Endpoints.orders) { _, caller in
            try respond(try await orders.orders(of: caller.shopper).map(OrderBody.init))
        }
        routes.shopper(Endpoints.order) { _, caller in
            guard let order = try await orders.order(try caller.parameter(OrderID.self), of: caller.shopper) else {
                throw HTTPError.orderNotFound
            }
            return try respond(OrderBody(order))
        }
    }
}
