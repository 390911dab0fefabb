import CheckoutKit
import Foundation
import StoreAPI
import StoreServerTestSupport
import StoreTestSupport
import Testing

/// The shopper sees their refunds (docs/BEHAVIOUR.md §14): `GET /api/orders/{id}`, `GET
/// /api/orders` and the receipt page show the payment status and each refund that gave money
/// back — refunds made by staff through the back office's API.
@Suite("The shopper's refunds") struct ShopperRefundTests {
    static let damaged = RefundRequestBody(
        lines: [RefundLineRequest(position: 0, quantity: 1)], reason: "damaged", note: "Box crushed by courier")

    @Test(
        "an order and the list show partially_refunded, then refunded, with each refund as its shopper sees it",
        arguments: Backend.allCases)
    func ordersShowTheirRefunds(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let shopper = try await store.newSession()
            let order = try await store.placeOrder([(1, 2), (3, 1)], token: shopper)
            #expect(order.paymentStatus == "paid" && order.refunds.isEmpty)
            let owner = try await store.ownerToken()

            let refunded = try await store.refund(order.id, Self.damaged, token: owner)
            #expect(refunded.status == 201, "\(refunded.text)")
            let refund = try refunded.decode(RefundBody.self)
            let reply = try await store.send(Endpoints.order, order.id, token: shopper)
            #expect(reply.status == 200)
            #expect(!reply.text.contains("Box crushed") && !reply.text.contains("owner@onlinestore.test"))
            let partly = try reply.decode(OrderBody.self)
            #expect(partly.paymentStatus == "partially_refunded")
            #expect(partly.status == "paid")
            #expect(partly.refunds == [refund.withoutStaffFields])
            #expect(partly.refunds.first?.lines.map(\.quantity) == [1])
            #expect(partly.refunds.first?.amount == order.lines[0].unitPrice)
            #expect(partly.refunds.first?.settledAt != nil)

            let cancelled = try await store.cancel(order.id, token: owner)
            #expect(cancelled.status == 201, "\(cancelled.text)")
            let list = try await store.send(Endpoints.orders, token: shopper).decode([OrderBody].self)
            #expect(list.map(\.id) == [order.id])
            #expect(list.first?.paymentStatus == "refunded")
            #expect(list.first?.status == "refunded")
            #expect(list.first?.refunds.map(\.kind) == ["lines", "cancellation"])
            #expect(list.first?.refunds.allSatisfy { $0.status == "succeeded" && $0.note == nil } == true)
            #expect(try await store.send(Endpoints.order, order.id, token: shopper).decode(OrderBody.self) == list[0])
            // Still nobody else's.
            #expect(try await store.send(Endpoints.order, order.id, token: try await store.newSession()).status == 404)
        }
    }

    @Test("a refund the provider refused gave nothing back: the order stays paid, with no refunds")
    func failedRefundsAreLeftOut() async throws {
        try await TestStore.with(.sqlite) { store in
            let shopper = try await store.newSession()
            let order = try await store.placeOrder(
                [(1, 1)], token: shopper, method: #"{"type":"card","token":"tok_refundFail"}"#)
            let refused = try await store.refund(order.id, Self.damaged, token: try await store.ownerToken())
            #expect(refused.status == 402)
            let read = try await store.send(Endpoints.order, order.id, token: shopper).decode(OrderBody.self)
            #expect(read.paymentStatus == "paid")
            #expect(read.refunds.isEmpty)
            #expect(try await store.send(Endpoints.orders, token: shopper).decode([OrderBody].self) == [read])
        }
    }

    @Test("the receipt page shows the payment status, each refund with its units and date, and the sum")
    func receiptPageShowsTheRefund() async throws {
        try await TestStore.with(.sqlite) { store in
            let shopper = try await store.newSession()
            let order = try await store.placeOrder([(1, 2), (3, 1)], token: shopper)
            let browser = TestBrowser(base: store.base)
            browser.setCookie("store_session", shopper)
            let before = try await browser.get("/orders/\(order.id)")
            #expect(before.status == 200)
            #expect(before.text.contains(#"<span class="badge badge-paid">Paid</span>"#))
            #expect(!before.text.contains("Refunds"))

            let refunded = try await store.refund(order.id, Self.damaged, token: try await store.ownerToken())
            let refund = try refunded.decode(RefundBody.self)
            let settled = try #require(refund.settledAt.flatMap { try? StoreJSON.timestampStyle.parse($0) })
            let page = try await browser.get("/orders/\(order.id)")
            #expect(page.text.contains(#"<span class="badge badge-partial">Partially refunded</span>"#))
            let total = order.total.formatted(locale: Locale(identifier: "en_US"))
            #expect(page.text.contains("Refunded in all: <strong>€10.20</strong> of \(total)"), "\(page.text)")
            let when = settled.formatted(
                Date.FormatStyle(
                    date: .long, time: .shortened, locale: Locale(identifier: "en_US"),
                    timeZone: TimeZone(identifier: "UTC") ?? .gmt
                ).timeZone(.specificName(.short)))
            #expect(page.text.contains("Refunded €10.20 on <time"))
            #expect(page.text.contains(">\(when)</time>"), "\(when)")
            #expect(page.text.contains("<span>Trail water bottle 750 ml × 1</span>"))
            #expect(!page.text.contains("Box crushed"))
            let list = try await browser.get("/orders")
            #expect(list.text.contains("Partially refunded"))
        }
    }
}

extension RefundBody {
    /// This refund as its shopper is shown it: without the note, who asked, or the provider's reason.
    fileprivate var withoutStaffFields: RefundBody {
        var body = self
        body.note = nil
        body.requestedBy = nil
        body.failureReason = nil
        return body
    }
}
