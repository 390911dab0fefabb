import StoreAPI

/// The shopper's basket (docs/BEHAVIOUR.md §9). Every change answers with the whole basket as it now is, priced
/// by the server.
public protocol BasketClient: Sendable {
    /// `GET /api/basket`.
    func basket() async throws(StoreClientError) -> BasketBody

    /// `PUT /api/basket/items/{product_id}` — sets a line's quantity (1…10), adding the line if it
    /// is absent. A quantity outside 1…10 is ``StoreClientError/invalid(type:message:field:)``;
    /// more than the stock is ``StoreClientError/outOfStock(message:)``.
    func setQuantity(_ request: SetQuantityRequest, productID: Int64) async throws(StoreClientError) -> BasketBody

    /// `DELETE /api/basket/items/{product_id}` — removes a line.
    func removeLine(productID: Int64) async throws(StoreClientError) -> BasketBody

    /// `PUT /api/basket/promotion` — applies a code, replacing any other. An unknown, expired or
    /// used-up code is ``StoreClientError/invalid(type:message:field:)`` ("That code isn't valid.").
    func applyPromotion(_ request: ApplyPromotionRequest) async throws(StoreClientError) -> BasketBody

    /// `DELETE /api/basket/promotion` — removes the code.
    func removePromotion() async throws(StoreClientError) -> BasketBody
}
