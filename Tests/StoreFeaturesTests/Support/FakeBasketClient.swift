import StoreAPI
import StoreClient
import Testing

/// A ``BasketClient`` that answers only what a test set up; any other call fails the test.
@MainActor
final class FakeBasketClient: BasketClient {
    var onBasket: (@MainActor () async -> Result<BasketBody, StoreClientError>)?
    var onSetQuantity: (@MainActor (Int, Int64) async -> Result<BasketBody, StoreClientError>)?
    var onRemoveLine: (@MainActor (Int64) async -> Result<BasketBody, StoreClientError>)?
    var onApplyPromotion: (@MainActor (String) async -> Result<BasketBody, StoreClientError>)?
    var onRemovePromotion: (@MainActor () async -> Result<BasketBody, StoreClientError>)?
    /// Every change sent, in order: `set 3 ×2`, `remove 3`, `promo GIFT25`, `promo off`.
    private(set) var changes: [String] = []

    func basket() async throws(StoreClientError) -> BasketBody {
        guard let onBasket else { throw unexpectedCall("BasketClient.basket()") }
        return try await onBasket().get()
    }

    func setQuantity(_ request: SetQuantityRequest, productID: Int64) async throws(StoreClientError) -> BasketBody {
        changes.append("set \(productID) ×\(request.quantity)")
        guard let onSetQuantity else {
            throw unexpectedCall("BasketClient.setQuantity(\(request.quantity), productID: \(productID))")
        }
        return try await onSetQuantity(request.quantity, productID).get()
    }

    func removeLine(productID: Int64) async throws(StoreClientError) -> BasketBody {
        changes.append("remove \(productID)")
        guard let onRemoveLine else { throw unexpectedCall("BasketClient.removeLine(productID: \(productID))") }
        return try await onRemoveLine(productID).get()
    }

    func applyPromotion(_ request: ApplyPromotionRequest) async throws(StoreClientError) -> BasketBody {
        changes.append("promo \(request.code)")
        guard let onApplyPromotion else { throw unexpectedCall("BasketClient.applyPromotion(\(request.code))") }
        return try await onApplyPromotion(request.code).get()
    }

    func removePromotion() async throws(StoreClientError) -> BasketBody {
        changes.append("promo off")
        guard let onRemovePromotion else { throw unexpectedCall("BasketClient.removePromotion()") }
        return try await onRemovePromotion().get()
    }
}
