import CheckoutKit
import Concurrency
import Foundation
import HTTPServer
import StoreAPI
import StoreClient
import StoreClientInProcess
import Testing

/// The in-process transport: requests go straight to a router's `respond(to:context:)`, no
/// socket — the same client code, the same answer mapping.
@Suite("In process, through a router") struct InProcessTransportTests {
    /// The requests the router saw.
    final class Seen: Sendable {
        let requests = Locked<[Request]>([])
        var all: [Request] { requests.withLock { $0 } }
    }

    static let product = ProductBody(
        id: 2, title: "Running cap", description: "A cap.", category: "apparel", price: eur(21_90),
        image: "/images/running-cap.svg", rating: RatingBody(rate: 4.5, count: 12), stock: 40)

    /// A router answering a few of the store's endpoints, writing errors as the store does.
    static func router(_ seen: Seen) -> Router {
        var router = Router()
        router.errorResponder = { error, _, _ in
            let body = ErrorBody(type: error.type, message: error.message, reason: error.reason, field: error.field)
            return (try? Response.json(body, status: error.status, encoder: StoreJSON.encoder))
                ?? Response(status: error.status)
        }
        router.use { request, context, next in
            seen.requests.withLock { $0.append(request) }
            return try await next(request, context)
        }
        router.get(Endpoints.products.pattern) { _, _ in
            try Response.json([product], encoder: StoreJSON.encoder)
        }
        router.get(Endpoints.categoryProducts.pattern) { _, context in
            guard context.parameters["name"] == "apparel/caps & hats" else { throw HTTPError.notFound("No.") }
            return try Response.json([product], encoder: StoreJSON.encoder)
        }
        router.get(Endpoints.basket.pattern) { _, _ in
            Response.html("<!doctype html><p>Sign in to the Wi-Fi</p>")
        }
        router.post(Endpoints.checkout.pattern) { _, _ in
            throw HTTPError(
                .conflict, type: "payment_in_progress", message: "Still being confirmed.",
                headers: ["Retry-After": "1"])
        }
        router.get(Endpoints.orders.pattern) { _, _ in
            try await Task.sleep(for: .seconds(30))
            return Response(status: .ok)
        }
        return router
    }

    @Test("an answer decoded, with the path's parameter encoded as one segment and decoded by the router")
    func answers() async throws {
        let seen = Seen()
        let client = LiveStoreClient(transport: RouterTransport(router: Self.router(seen)), token: "t-1")
        #expect(try await client.products() == [Self.product])
        #expect(try await client.products(inCategory: "apparel/caps & hats") == [Self.product])
        let paths = seen.all.map(\.target)
        #expect(paths == ["/api/products", "/api/categories/apparel%2Fcaps%20%26%20hats/products"])
        #expect(seen.all.allSatisfy { $0.headers["Authorization"] == "Bearer t-1" })
        #expect(seen.all.allSatisfy { $0.clientAddress == "127.0.0.1" })
    }

    @Test("errors map as over a socket: the router's own 404, a 409 kind, an HTML page")
    func errors() async throws {
        let seen = Seen()
        let client = LiveStoreClient(transport: RouterTransport(router: Self.router(seen)), token: "t-1")
        let missing = await failure { () async throws(StoreClientError) in try await client.product(id: 7) }
        #expect(missing == .notFound(message: "No resource exists at this path."))

        let key = try makeKey("k")
        let request = CheckoutRequest(method: .qrCode, expectedTotal: eur(26_85))
        let busy = await failure { () async throws(StoreClientError) in
            try await client.checkout(request, idempotencyKey: key)
        }
        #expect(busy == .paymentInProgress)
        let checkout = try #require(seen.all.last)
        #expect(checkout.headers["Idempotency-Key"] == "k")
        #expect(checkout.headers["Content-Type"] == "application/json")
        let sent = try StoreJSON.decoder.decode(CheckoutRequest.self, from: Data(checkout.body))
        #expect(sent == request)

        let page = await failure { () async throws(StoreClientError) in try await client.basket() }
        guard case .unexpectedAnswer(200, _) = page else {
            Issue.record("got \(String(describing: page))")
            return
        }
    }

    @Test("a cancelled call is unavailable")
    func cancelled() async throws {
        let seen = Seen()
        let client = LiveStoreClient(transport: RouterTransport(router: Self.router(seen)), token: "t-1")
        let call = Task { await failure { () async throws(StoreClientError) in try await client.orders() } }
        for _ in 0..<200 where seen.all.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        call.cancel()
        #expect(await call.value == .unavailable)
    }
}
