import CheckoutKit

extension AdminEndpoints {
    /// Orders newest first (docs/BEHAVIOUR.md §13.8), filtered by `?payment_status=`,
    /// `?fulfilment_status=`, `?from=` and `?to=` (days, `2025-03-12`, in UTC, both included) and
    /// `?q=` (an order id or its start, or part of a customer's email); `?offset=&limit=` page
    /// (limit 1–200, default 50). An empty filter is none; any other value the store does not know
    /// → 400 `invalid_query` naming the parameter.
    public static let orders = Endpoint<NoBody, AdminOrderList>(
        .get, "/api/admin/orders", access: .staff(.manageOrders))
    /// One order with its lines, payment, customer, refunds and timeline.
    public static let order = Endpoint<NoBody, AdminOrderBody>(
        .get, "/api/admin/orders/{id}", access: .staff(.manageOrders))
    /// Marks an order `packed`, `shipped` (with its tracking number) or `delivered` → the order;
    /// a step its state does not allow, or on an order no longer in `expected_status` → 409
    /// `invalid_transition` with its `fulfilment_status` now (``InvalidTransitionBody``); shipping
    /// without a tracking number or with an invalid one → 422 `invalid_tracking_number`;
    /// `cancelled` → 422 (cancelling is a refund: use the cancel action).
    public static let moveOrder = Endpoint<FulfilmentRequest, AdminOrderBody>(
        .post, "/api/admin/orders/{id}/fulfilment", access: .staff(.manageOrders))
}

extension AdminEndpoints {
    /// Refunds units of lines (restocked unless `restock` is `false`) and maybe the shipping, or a
    /// goodwill amount, with a reason (docs/BEHAVIOUR.md §14) → 201 with the refund, `succeeded`;
    /// 402 `refund_failed` when the provider refused it. Requires `Idempotency-Key`: the same key
    /// and body replay the outcome (`Idempotent-Replayed: true`), another body → 422
    /// `idempotency_mismatch`, while the first is running → 409 `idempotency_in_progress`; the
    /// provider's answer lost → 503 `unavailable` (retry with the same key: never refunded twice).
    /// More than remains → 409 `refund_exceeds_remaining` with the `remaining` amount, reaching no
    /// provider; a line, quantity or shipping that cannot be refunded → 422 `invalid_refund`.
    public static let refundOrder = Endpoint<RefundRequestBody, RefundBody>(
        .post, "/api/admin/orders/{id}/refunds", access: .staff(.refund))
    /// What a refund would give back now, recording nothing.
    public static let quoteRefund = Endpoint<RefundRequestBody, RefundQuoteBody>(
        .post, "/api/admin/orders/{id}/refunds/quote", access: .staff(.refund))
    /// **Cancel order** before shipping: a full refund of what remains, every unit not yet refunded
    /// restocked, the promotion's use given back → 201 with the refund. Requires `Idempotency-Key`
    /// like a refund; a shipped, delivered or cancelled order → 409 `not_cancellable`.
    public static let cancelOrder = Endpoint<CancelOrderRequest, RefundBody>(
        .post, "/api/admin/orders/{id}/cancel", access: .staff(.manageOrders))
}
