import CheckoutKit
import Foundation

/// One order in `GET /api/admin/orders` (docs/BEHAVIOUR.md §13.8).
public struct AdminOrderSummary: Codable, Hashable, Sendable {
    public var id: String
    /// An ISO 8601 timestamp.
    public var createdAt: String
    /// Absent for an order a guest placed without logging in.
    public var customerEmail: String?
    /// What was charged, fee included.
    public var total: Money
    /// `paid`, `partially_refunded` or `refunded`.
    public var paymentStatus: String
    /// `unfulfilled`, `packed`, `shipped`, `delivered` or `cancelled`.
    public var fulfilmentStatus: String
    /// Units bought, over every line.
    public var itemCount: Int

    private enum CodingKeys: String, CodingKey {
        case id, total
        case createdAt = "created_at"
        case customerEmail = "customer_email"
        case paymentStatus = "payment_status"
        case fulfilmentStatus = "fulfilment_status"
        case itemCount = "item_count"
    }

    public init(
        id: String, createdAt: String, customerEmail: String?, total: Money, paymentStatus: String,
        fulfilmentStatus: String, itemCount: Int
    ) {
        self.id = id
        self.createdAt = createdAt
        self.customerEmail = customerEmail
        self.total = total
        self.paymentStatus = paymentStatus
        self.fulfilmentStatus = fulfilmentStatus
        self.itemCount = itemCount
    }
}

/// One page of `GET /api/admin/orders`: newest first, and how many match in all.
public struct AdminOrderList: Codable, Hashable, Sendable {
    public var orders: [AdminOrderSummary]
    public var total: Int
    public var offset: Int
    public var limit: Int

    public init(orders: [AdminOrderSummary], total: Int, offset: Int, limit: Int) {
        self.orders = orders
        self.total = total
        self.offset = offset
        self.limit = limit
    }
}

/// The customer who placed an order.
public struct AdminOrderCustomerBody: Codable, Hashable, Sendable {
    public var id: Int64
    public var email: String
    /// First and last name; absent when the account has neither.
    public var name: String?

    public init(id: Int64, email: String, name: String?) {
        self.id = id
        self.email = email
        self.name = name
    }
}

/// One line of an order's timeline: what happened, when and by whom.
public struct OrderTimelineEntryBody: Codable, Hashable, Sendable {
    /// An ISO 8601 timestamp.
    public var at: String
    /// `paid`, `packed`, `shipped`, `delivered` (and the refunds' kinds).
    public var kind: String
    /// `customer` for the payment, a member of staff's email for a step.
    public var actor: String
    /// The tracking number, for `shipped`.
    public var detail: String?

    public init(at: String, kind: String, actor: String, detail: String?) {
        self.at = at
        self.kind = kind
        self.actor = actor
        self.detail = detail
    }
}

/// An order as the back office reads it (`GET /api/admin/orders/{id}`): the lines and amounts as
/// charged, the payment, the customer, where the parcel is, its refunds and its timeline.
public struct AdminOrderBody: Codable, Hashable, Sendable {
    public var id: String
    /// An ISO 8601 timestamp.
    public var createdAt: String
    public var lines: [OrderLineBody]
    public var subtotal: Money
    public var discount: Money
    /// The promotion code that gave the discount, if any.
    public var promotion: String?
    public var shipping: Money
    public var fee: Money
    /// What was charged: subtotal − discount + shipping + fee.
    public var total: Money
    /// `type`, and for cards the `brand` the provider reported.
    public var paymentMethod: PaymentMethodBody
    /// `paid`, `partially_refunded` or `refunded`.
    public var paymentStatus: String
    /// `unfulfilled`, `packed`, `shipped`, `delivered` or `cancelled`.
    public var fulfilmentStatus: String
    /// Recorded when the order was shipped.
    public var trackingNumber: String?
    /// Absent for an order a guest placed without logging in.
    public var customer: AdminOrderCustomerBody?
    /// Oldest first.
    public var refunds: [RefundBody]
    /// Oldest first; the payment opens it.
    public var timeline: [OrderTimelineEntryBody]

    private enum CodingKeys: String, CodingKey {
        case id, lines, subtotal, discount, promotion, shipping, fee, total, customer, refunds, timeline
        case createdAt = "created_at"
        case paymentMethod = "payment_method"
        case paymentStatus = "payment_status"
        case fulfilmentStatus = "fulfilment_status"
        case trackingNumber = "tracking_number"
    }

    public init(
        id: String, createdAt: String, lines: [OrderLineBody], subtotal: Money, discount: Money, promotion: String?,
        shipping: Money, fee: Money, total: Money, paymentMethod: PaymentMethodBody, paymentStatus: String,
        fulfilmentStatus: String, trackingNumber: String?, customer: AdminOrderCustomerBody?,
        refunds: [RefundBody], timeline: [OrderTimelineEntryBody]
    ) {
        self.id = id
        self.createdAt = createdAt
        self.lines = lines
        self.subtotal = subtotal
        self.discount = discount
        self.promotion = promotion
        self.shipping = shipping
        self.fee = fee
        self.total = total
        self.paymentMethod = paymentMethod
        self.paymentStatus = paymentStatus
        self.fulfilmentStatus = fulfilmentStatus
        self.trackingNumber = trackingNumber
        self.customer = customer
        self.refunds = refunds
        self.timeline = timeline
    }
}

/// `POST /api/admin/orders/{id}/fulfilment`: the state to mark the order as, the tracking number
/// for `shipped`, and optionally the state the order was seen in (the step is refused if it
/// moved meanwhile).
public struct FulfilmentRequest: Codable, Hashable, Sendable {
    /// `packed`, `shipped` or `delivered`.
    public var status: String
    /// Required with `shipped`, not read with the others.
    public var trackingNumber: String?
    /// The state the order was in when the step was chosen.
    public var expectedStatus: String?

    private enum CodingKeys: String, CodingKey {
        case status
        case trackingNumber = "tracking_number"
        case expectedStatus = "expected_status"
    }

    public init(status: String, trackingNumber: String? = nil, expectedStatus: String? = nil) {
        self.status = status
        self.trackingNumber = trackingNumber
        self.expectedStatus = expectedStatus
    }
}

/// The answer to a step the order's state does not allow, or on an order that moved meanwhile:
/// 409 `invalid_transition`, with the state the order is in now.
public struct InvalidTransitionBody: Codable, Hashable, Sendable {
    public var error: ErrorBody.Detail
    /// The order's fulfilment status now.
    public var fulfilmentStatus: String

    private enum CodingKeys: String, CodingKey {
        case error
        case fulfilmentStatus = "fulfilment_status"
    }

    public init(error: ErrorBody.Detail, fulfilmentStatus: String) {
        self.error = error
        self.fulfilmentStatus = fulfilmentStatus
    }
}
