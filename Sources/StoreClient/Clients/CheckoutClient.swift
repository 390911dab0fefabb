import CheckoutKit
import StoreAPI

/// Paying for the basket (docs/BEHAVIOUR.md §5, §9).
public protocol CheckoutClient: Sendable {
    /// `POST /api/checkout` with the header `Idempotency-Key: idempotencyKey` → 201 and the order.
    ///
    /// The request is sent exactly as given, so a retry with the same key and the same request is
    /// recognised by the server and never charges twice. Throws
    /// ``StoreClientError/declined(reason:message:)`` (402), ``StoreClientError/priceChanged(message:)``,
    /// ``StoreClientError/outOfStock(message:)``, ``StoreClientError/idempotencyInProgress``,
    /// ``StoreClientError/paymentInProgress`` (409), ``StoreClientError/idempotencyMismatch(field:)``
    /// (422), ``StoreClientError/unavailable`` (503, a timeout, a lost connection) — after which the
    /// outcome is unknown and the same key must be sent again.
    func checkout(
        _ request: CheckoutRequest, idempotencyKey: IdempotencyKey
    ) async throws(StoreClientError)
        -> OrderBody
}
