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
