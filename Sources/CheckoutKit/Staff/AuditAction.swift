/// What a line of the audit log records, as the stable code the log, its CSV export and the API
/// carry (`product.changed`). Every change staff make, and every sign-in, is one of these; the
/// back office words each of them.
public enum AuditAction: String, CaseIterable, Hashable, Sendable {
    case staffSignedIn = "staff.signed_in"
    case staffSignInFailed = "staff.sign_in_failed"
    case staffAdded = "staff.added"
    case staffRemoved = "staff.removed"
    case productCreated = "product.created"
    case productChanged = "product.changed"
    case productImageChanged = "product.image_changed"
    case stockAdjusted = "stock.adjusted"
    case catalogImported = "catalog.imported"
    case promotionCreated = "promotion.created"
    case promotionDisabled = "promotion.disabled"
    /// An order packed, shipped or delivered: the status before and after, and the tracking number.
    case orderFulfilment = "order.fulfilment"
    /// An order cancelled: what remained of it refunded, its units back in stock.
    case orderCancelled = "order.cancelled"
    case orderRefundRequested = "order.refund_requested"
    case orderRefunded = "order.refunded"
    case orderRefundFailed = "order.refund_failed"
    /// A refund asked for that never reached the payment provider, taken back.
    case orderRefundWithdrawn = "order.refund_withdrawn"
}
