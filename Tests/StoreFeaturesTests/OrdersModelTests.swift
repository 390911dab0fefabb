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
}
