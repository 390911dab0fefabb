import CheckoutKit
import StoreAPI
import StoreClient
import Testing

/// A ``CheckoutClient`` that answers only what a test set up; any other call fails the test.
/// It records every request with its key.
@MainActor
final class FakeCheckoutClient: CheckoutClient {
    struct Call: Equatable {
        var request: CheckoutRequest
        var key: IdempotencyKey
    }

    var onCheckout: (@MainActor (CheckoutRequest, IdempotencyKey) async -> Result<OrderBody, StoreClientError>)?
    private(set) var calls: [Call] = []

    var keys: [IdempotencyKey] { calls.map(\.key) }

    func checkout(
        _ request: CheckoutRequest, idempotencyKey: IdempotencyKey
    ) async throws(StoreClientError)
        -> OrderBody
    {
        calls.append(Call(request: request, key: idempotencyKey))
        guard let onCheckout else { throw unexpectedCall("CheckoutClient.checkout(key: \(idempotencyKey))") }
        return try await onCheckout(request, idempotencyKey).get()
    }

    /// Answers each checkout with the next of `answers`, in order.
    func answer(_ answers: [Result<OrderBody, StoreClientError>]) {
        var remaining = answers
        onCheckout = { _, _ in
            guard !remaining.isEmpty else {
                return .failure(unexpectedCall("CheckoutClient.checkout (more often than the test set up)"))
            }
            return remaining.removeFirst()
        }
    }
}
