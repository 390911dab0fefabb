import CheckoutKit
import HTTPServer
import StoreAPI
import StoreDatabase
import StoreServices

/// `POST /api/checkout` and the shopper's orders.
struct CheckoutRoutes: Sendable {
    let checkout: CheckoutService
    let orders: OrdersService

    func register(on routes: inout RouteTable) {
        routes.shopper(Endpoints.checkout, readingBasket: true) { request, caller in
            guard let header = request.headers[Endpoints.idempotencyKeyHeader] else {
                throw HTTPError.idempotencyKeyRequired
            }
            guard let key = IdempotencyKey(rawValue: header) else { throw HTTPError.invalidIdempotencyKey }
            // The plain spelling every client sends is read without JSONDecoder (a twentieth of a
            // checkout's work); any other goes through it, and its errors.
            let body = try CheckoutRequest(plainJSON: request.body) ?? request.decodeJSON(CheckoutRequest.self)
            let result = try await checkout.checkout(
                method: try body.validatedPaymentMethod(), expectedTotal: body.expectedTotal, key: key,
                shopper: caller.shopper, basket: caller.basket)
            var response = Response.bytes(
                Array(result.answer.body.utf8), contentType: "application/json; charset=utf-8",
                status: HTTPStatus(code: result.answer.status))
            if result.replayed { response.headers.replaceOrAdd(name: "Idempotent-Replayed", value: "true") }
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

/// The API's answers to a checkout, as they are sent and kept to replay: the order (201), or the
/// decline's error (402).
struct APICheckoutAnswers: CheckoutAnswers {
    func paid(_ order: Order) throws -> StoredResponse {
        StoredResponse(
            status: 201, body: String(decoding: try OrderBody(paid: order).encodedJSON(), as: UTF8.self))
    }

    func declined(_ reason: DeclineReason) -> StoredResponse {
        let error = CheckoutError.declined(reason).httpError
        return StoredResponse(
            status: error.status.code, body: String(decoding: StoreErrorResponder.jsonBody(of: error), as: UTF8.self))
    }
}
