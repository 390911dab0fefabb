import CheckoutKit
import Foundation
import StoreAPI
import StoreClient
import StoreClientInProcess
import StoreServerTestSupport
import Testing

/// The live client over the real store's routes in process — no socket, the same server code.
@Suite("The real store, in process") struct InProcessStoreTests {
    @Test func aPurchaseWithoutASocket() async throws {
        try await LiveStore.with { store in
            let server = store.server
            let client = LiveStoreClient(transport: RouterTransport { await server.respond(to: $0) })
            let products = try await client.products()
            #expect(products.contains { $0.title == "Running cap" })
            _ = try await client.setQuantity(SetQuantityRequest(quantity: 1), productID: 2)
            let basket = try await client.applyPromotion(ApplyPromotionRequest(code: "GIFT25"))
            // 21.90 with GIFT25 → discount 21.90, shipping 4.95, total 4.95.
            #expect(basket.total == eur(4_95))
            let key = try makeKey("in-process-1")
            let request = CheckoutRequest(
                method: .card(try CardToken("tok_visa")), expectedTotal: basket.total)
            let order = try await client.checkout(request, idempotencyKey: key)
            let again = try await client.checkout(request, idempotencyKey: key)
            #expect(again.id == order.id)
            #expect(try await client.orders().map(\.id) == [order.id])
            #expect(order.paymentStatus == "paid" && order.refunds.isEmpty)
            // A refund in the back office reaches the shopper's order through the same routes.
            let refund = try await OwnerRefunds(base: store.base).refund(
                order.id, RefundRequestBody(amount: eur(1_00), reason: "goodwill"))
            let refunded = try await client.order(id: order.id)
            #expect(refunded.paymentStatus == "partially_refunded")
            #expect(refunded.refunds.map(\.id) == [refund.id])
            #expect(refunded.refunds.first?.kind == "goodwill")
            #expect(try await client.orders() == [refunded])
            #expect(try await store.orderCount() == 1)
            // Errors take the same path as over the network.
            let missing = await #expect(throws: StoreClientError.self) { try await client.product(id: 999) }
            #expect(missing == .notFound(message: "There is no such product."))
        }
    }
}
