import StoreAPI
import StoreClient
import Testing

/// An ``OrdersClient`` that answers only what a test set up; any other call fails the test.
@MainActor
final class FakeOrdersClient: OrdersClient {
    var onOrders: (@MainActor () async -> Result<[OrderBody], StoreClientError>)?
    var onOrder: (@MainActor (String) async -> Result<OrderBody, StoreClientError>)?
    private(set) var ordersCalls = 0

    func orders() async throws(StoreClientError) -> [OrderBody] {
        ordersCalls += 1
        guard let onOrders else { throw unexpectedCall("OrdersClient.orders()") }
        return try await onOrders().get()
    }

    func order(id: String) async throws(StoreClientError) -> OrderBody {
        guard let onOrder else { throw unexpectedCall("OrdersClient.order(id: \(id))") }
        return try await onOrder(id).get()
    }
}
