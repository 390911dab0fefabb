import CheckoutKit
import Foundation
import StoreAPI
import StoreClient
import StoreFeatures
import Testing

/// docs/BEHAVIOUR.md §10, orders: the shopper's orders and one receipt.
@MainActor
@Suite struct OrdersModelTests {
    let orders = FakeOrdersClient()

    @Test("the orders load once")
    func loadsOnce() async {
        let model = OrdersModel(orders: orders)
        orders.onOrders = { .success([order("ord_2"), order("ord_1")]) }
        await model.task()
        await model.task()
        #expect(model.state == .loaded([order("ord_2"), order("ord_1")]))
        #expect(orders.ordersCalls == 1)
    }

    @Test("a failed load offers Try again")
    func failedLoad() async {
        let model = OrdersModel(orders: orders)
        orders.onOrders = { .failure(.unavailable) }
        await model.task()
        #expect(model.state.failureMessage == StoreClientError.unavailable.message)
        orders.onOrders = { .success([]) }
        await model.tryAgainButtonTapped()
        #expect(model.state == .loaded([]))
    }

    @Test("an order tapped opens its receipt as the server has it")
    func receipt() async {
        let model = OrdersModel(orders: orders)
        var refunded = order("ord_1")
        refunded.status = "refunded"
        orders.onOrder = { id in
            #expect(id == "ord_1")
            return .success(refunded)
        }
        await model.orderTapped(id: "ord_1")
        #expect(model.destination == .receipt(refunded))
    }

    @Test("a receipt that cannot be opened says why")
    func receiptNotFound() async {
        let model = OrdersModel(orders: orders)
        orders.onOrder = { _ in .failure(.notFound(message: "There is no such order.")) }
        await model.orderTapped(id: "ord_x")
        #expect(model.destination == nil)
        #expect(model.alert == .receiptFailed(message: "There is no such order."))
    }

    @Test("an order placed joins the top of the list")
    func orderPlaced() async {
        let model = OrdersModel(orders: orders)
        orders.onOrders = { .success([order("ord_1")]) }
        await model.task()
        model.orderPlaced(order("ord_2"))
        #expect(model.state == .loaded([order("ord_2"), order("ord_1")]))
    }

    static let enUS = Locale(identifier: "en_US")
    static let utc = TimeZone(identifier: "UTC") ?? .gmt

    /// A refund of the order's cap (or of `amount` as goodwill, with no lines) in `status`.
    static func refund(
        _ status: String, kind: String = "lines", amount: Money = eur(21_90), shipping: Money = eur(0),
        settled: String? = "2026-05-30T09:15:00.000Z"
    ) -> RefundBody {
        RefundBody(
            id: "ref_\(status)_\(kind)", status: status, kind: kind, amount: amount,
            lines: kind == "goodwill"
                ? []
                : [
                    RefundLineBody(
                        position: 0, productId: 2, title: "Cap", quantity: 1, amount: eur(21_90), restock: true)
                ],
            shipping: shipping, fee: eur(0), reason: "damaged", note: nil, requestedBy: nil,
            createdAt: "2026-05-30T09:14:00.000Z", settledAt: status == "pending" ? nil : settled,
            failureReason: nil)
    }

    @Test("a receipt after refunds: the payment status, each refund's amount, units and date, and the sum")
    func receiptWithRefunds() async throws {
        let model = OrdersModel(orders: orders, locale: Self.enUS, timeZone: Self.utc)
        var refunded = order("ord_1")
        refunded.paymentStatus = "partially_refunded"
        refunded.refunds = [
            Self.refund("succeeded", shipping: eur(4_95)), Self.refund("failed"),
            Self.refund("pending", kind: "goodwill", amount: eur(2_00)),
        ]
        orders.onOrder = { _ in .success(refunded) }
        #expect(model.receiptRefunds == nil)
        await model.orderTapped(id: "ord_1")
        let refunds = try #require(model.receiptRefunds)
        #expect(refunds.status == .partiallyRefunded)
        #expect(refunds.statusLabel == "Partially refunded")
        // ICU puts a narrow no-break space (U+202F) before AM and PM.
        #expect(
            refunds.entries.map(\.headline) == [
                "Refunded €21.90 on May 30, 2026 at 9:15\u{202F}AM GMT",
                "Refund of €2.00 pending since May 30, 2026 at 9:14\u{202F}AM GMT",
            ], "a failed refund gave nothing back")
        #expect(refunds.entries.first?.parts.map(\.label) == ["Cap × 1", "Shipping"])
        #expect(refunds.entries.first?.parts.map(\.amount) == [eur(21_90), eur(4_95)])
        #expect(refunds.entries.last?.parts.map(\.label) == ["Goodwill refund"])
        #expect(refunds.entries.map(\.isPending) == [false, true])
        #expect(refunds.refunded == eur(21_90), "only what succeeded went back")
    }

    @Test("a freshly paid order: Paid, nothing refunded; each row of the list says its payment status")
    func statusLabels() async {
        let model = OrdersModel(orders: orders, locale: Self.enUS, timeZone: Self.utc)
        let paid = order("ord_1")
        #expect(model.refunds(of: paid).isEmpty)
        #expect(model.refunds(of: paid).statusLabel == "Paid")
        #expect(model.refunds(of: paid).refunded == eur(0))
        var all = order("ord_2")
        all.paymentStatus = "refunded"
        var unknown = order("ord_3")
        unknown.paymentStatus = "disputed"
        #expect([paid, all, unknown].map(model.paymentStatusLabel(of:)) == ["Paid", "Refunded", "disputed"])
        #expect(model.refunds(of: unknown).status == nil)
    }
}
