import CheckoutKit
import Foundation

/// One line of a refund: units of one of the order's lines, what they gave back, and whether they
/// went back into stock.
public struct RefundLineBody: Codable, Hashable, Sendable {
    /// The line's place in the order, 0 for the first.
    public var position: Int
    public var productId: Int64
    public var title: String
    public var quantity: Int
    public var amount: Money
    public var restock: Bool

    private enum CodingKeys: String, CodingKey {
        case position, title, quantity, amount, restock
        case productId = "product_id"
    }

    public init(position: Int, productId: Int64, title: String, quantity: Int, amount: Money, restock: Bool) {
        self.position = position
        self.productId = productId
        self.title = title
        self.quantity = quantity
        self.amount = amount
        self.restock = restock
    }
}

/// A refund of an order (docs/BEHAVIOUR.md §14), in an order's answer and as the answer to a
/// refund request. The shopper's order leaves out who asked for it, the note and the provider's
/// reason for a failure.
public struct RefundBody: Codable, Hashable, Sendable {
    public var id: String
    /// `pending`, `succeeded` or `failed`.
    public var status: String
    /// `lines`, `goodwill` or `cancellation`.
    public var kind: String
    /// What went back (or goes back, or would have): the lines, the shipping and the fee together.
    public var amount: Money
    public var lines: [RefundLineBody]
    public var shipping: Money
    public var fee: Money
    /// `returned`, `damaged`, `wrong_item`, `not_delivered`, `goodwill`, `cancelled` or `other`.
    public var reason: String
    public var note: String?
    /// A member of staff's email, or `command line`.
    public var requestedBy: String?
    /// An ISO 8601 timestamp.
    public var createdAt: String
    /// When the outcome was recorded; absent while pending.
    public var settledAt: String?
    /// The provider's reason, for a failed refund.
    public var failureReason: String?

    private enum CodingKeys: String, CodingKey {
        case id, status, kind, amount, lines, shipping, fee, reason, note
        case requestedBy = "requested_by"
        case createdAt = "created_at"
        case settledAt = "settled_at"
        case failureReason = "failure_reason"
    }

    public init(
        id: String, status: String, kind: String, amount: Money, lines: [RefundLineBody], shipping: Money, fee: Money,
        reason: String, note: String?, requestedBy: String?, createdAt: String, settledAt: String?,
        failureReason: String?
    ) {
        self.id = id
        self.status = status
        self.kind = kind
        self.amount = amount
        self.lines = lines
        self.shipping = shipping
        self.fee = fee
        self.reason = reason
        self.note = note
        self.requestedBy = requestedBy
        self.createdAt = createdAt
        self.settledAt = settledAt
        self.failureReason = failureReason
    }

    /// `refund` as the back office sees it (`forShopper: false`) or as its shopper does.
    public init(_ refund: Refund, forShopper: Bool) {
        self.init(
            id: refund.id.rawValue, status: refund.state.rawValue, kind: refund.kind.rawValue, amount: refund.amount,
            lines: refund.lines.map {
                RefundLineBody(
                    position: $0.position, productId: $0.productID.rawValue, title: $0.title, quantity: $0.quantity,
                    amount: $0.amount, restock: $0.restock)
            }, shipping: refund.shipping, fee: refund.fee, reason: refund.reason.kind.rawValue,
            note: forShopper ? nil : refund.reason.note, requestedBy: forShopper ? nil : refund.requestedBy,
            createdAt: StoreJSON.timestamp(refund.createdAt), settledAt: refund.settledAt.map(StoreJSON.timestamp),
            failureReason: forShopper ? nil : refund.failureReason)
    }
}

/// Units of one line to refund.
public struct RefundLineRequest: Codable, Hashable, Sendable {
    /// The line's place in the order, 0 for the first.
    public var position: Int
    public var quantity: Int
    /// Whether the units go back into stock; yes unless `false`.
    public var restock: Bool?

    public init(position: Int, quantity: Int, restock: Bool? = nil) {
        self.position = position
        self.quantity = quantity
        self.restock = restock
    }
}

/// `POST /api/admin/orders/{id}/refunds` and its `/quote`: units of lines (and maybe the
/// shipping), or a goodwill `amount` — never both — with a reason.
public struct RefundRequestBody: Codable, Hashable, Sendable {
    public var lines: [RefundLineRequest]?
    /// Refund the shipping too.
    public var shipping: Bool?
    /// A goodwill amount, with no lines.
    public var amount: Money?
    /// `returned`, `damaged`, `wrong_item`, `not_delivered`, `goodwill` or `other`.
    public var reason: String
    /// At most 500 characters.
    public var note: String?

    public init(
        lines: [RefundLineRequest]? = nil, shipping: Bool? = nil, amount: Money? = nil, reason: String,
        note: String? = nil
    ) {
        self.lines = lines
        self.shipping = shipping
        self.amount = amount
        self.reason = reason
        self.note = note
    }
}

/// `POST /api/admin/orders/{id}/cancel`: an optional note; the reason is `cancelled`.
public struct CancelOrderRequest: Codable, Hashable, Sendable {
    public var note: String?

    public init(note: String? = nil) {
        self.note = note
    }
}

/// What a refund would give back, before it is asked for.
public struct RefundQuoteBody: Codable, Hashable, Sendable {
    public var amount: Money
    public var lines: [RefundLineBody]
    public var shipping: Money
    public var fee: Money
    /// What remains refundable of the order now, before this refund.
    public var remaining: Money

    public init(amount: Money, lines: [RefundLineBody], shipping: Money, fee: Money, remaining: Money) {
        self.amount = amount
        self.lines = lines
        self.shipping = shipping
        self.fee = fee
        self.remaining = remaining
    }
}

/// 409 `refund_exceeds_remaining`: the refund would give back more than remains of the payment;
/// nothing was recorded and no provider was asked.
public struct RefundExceedsRemainingBody: Codable, Hashable, Sendable {
    public var error: ErrorBody.Detail
    /// What may still be refunded.
    public var remaining: Money

    public init(error: ErrorBody.Detail, remaining: Money) {
        self.error = error
        self.remaining = remaining
    }
}

/// 402 `refund_failed`: the provider refused the refund; nothing was given back or restocked, and
/// the amount is refundable again. The refund is recorded, `failed`.
public struct RefundFailedBody: Codable, Hashable, Sendable {
    /// `reason` is the provider's.
    public var error: ErrorBody.Detail
    public var refund: RefundBody

    public init(error: ErrorBody.Detail, refund: RefundBody) {
        self.error = error
        self.refund = refund
    }
}
