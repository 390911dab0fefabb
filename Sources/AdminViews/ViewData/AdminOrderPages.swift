import CheckoutKit
import Foundation

/// The orders at `/admin/orders`, newest first, filtered and a page at a time.
public struct AdminOrderListPage: Hashable, Sendable {
    public var filter: AdminOrderFilter
    public var orders: [AdminOrderRow]
    public var paging: AdminPaging

    public init(filter: AdminOrderFilter = AdminOrderFilter(), orders: [AdminOrderRow], paging: AdminPaging) {
        self.filter = filter
        self.orders = orders
        self.paging = paging
    }
}

/// One order at `/admin/orders/{id}`: what was bought and paid, who bought it, where it is, its
/// timeline and refunds, and the actions its state allows.
public struct AdminOrderPage: Hashable, Sendable {
    /// A line of the order at the price charged.
    public struct Line: Hashable, Sendable {
        public var productID: ProductID?
        public var title: String
        public var unitPrice: Money
        public var quantity: Int
        public var lineTotal: Money

        public init(productID: ProductID? = nil, title: String, unitPrice: Money, quantity: Int, lineTotal: Money) {
            self.productID = productID
            self.title = title
            self.unitPrice = unitPrice
            self.quantity = quantity
            self.lineTotal = lineTotal
        }
    }

    /// The order's sums.
    public struct Amounts: Hashable, Sendable {
        public var subtotal: Money
        public var discount: Money
        /// The promotion code that gave the discount.
        public var promotionCode: String?
        public var shipping: Money
        public var fee: Money
        /// What was charged: subtotal − discount + shipping + fee.
        public var total: Money

        public init(
            subtotal: Money, discount: Money, promotionCode: String?, shipping: Money, fee: Money, total: Money
        ) {
            self.subtotal = subtotal
            self.discount = discount
            self.promotionCode = promotionCode
            self.shipping = shipping
            self.fee = fee
            self.total = total
        }
    }

    /// How the order was paid, and how much of it is refunded.
    public struct Payment: Hashable, Sendable {
        public var method: PaymentMethod.Kind
        /// The card's brand (`visa`), for a card.
        public var cardBrand: String?
        public var status: AdminPaymentStatus
        public var paid: Money
        /// The refunds that succeeded or are pending.
        public var refunded: Money
        /// What may still be refunded.
        public var remaining: Money

        public init(
            method: PaymentMethod.Kind, cardBrand: String?, status: AdminPaymentStatus, paid: Money, refunded: Money,
            remaining: Money
        ) {
            self.method = method
            self.cardBrand = cardBrand
            self.status = status
            self.paid = paid
            self.refunded = refunded
            self.remaining = remaining
        }
    }

    /// The customer who placed the order.
    public struct Customer: Hashable, Sendable {
        public var id: Int64
        public var email: String

        public init(id: Int64, email: String) {
            self.id = id
            self.email = email
        }
    }

    /// Something that happened to the order.
    public enum Event: Hashable, Sendable {
        case paid(Money)
        case packed
        case shipped(trackingNumber: String?)
        case delivered
        case refund(Money, reason: String, status: AdminRefundStatus)
        case cancelled
    }

    /// One line of the timeline: what, who and when.
    public struct TimelineEntry: Hashable, Sendable {
        public var event: Event
        public var actor: AdminActor
        public var at: Date

        public init(event: Event, actor: AdminActor, at: Date) {
            self.event = event
            self.actor = actor
            self.at = at
        }
    }

    /// A refund of the order.
    public struct Refund: Hashable, Sendable {
        public var amount: Money
        public var status: AdminRefundStatus
        public var reason: String
        /// The member of staff who asked for it.
        public var by: String
        public var at: Date

        public init(amount: Money, status: AdminRefundStatus, reason: String, by: String, at: Date) {
            self.amount = amount
            self.status = status
            self.reason = reason
            self.by = by
            self.at = at
        }
    }

    /// **Cancel order**: what it refunds, and the key that makes it happen once.
    public struct Cancellation: Hashable, Sendable {
        /// Minted when the page is made; sent back in the hidden `idempotency_key` field.
        public var idempotencyKey: String
        /// What cancelling refunds: everything still refundable.
        public var refund: Money

        public init(idempotencyKey: String, refund: Money) {
            self.idempotencyKey = idempotencyKey
            self.refund = refund
        }
    }

    /// The actions the order's state (and the viewer's role) allows.
    public struct Actions: Hashable, Sendable {
        public var markPacked: Bool
        public var markShipped: Bool
        public var markDelivered: Bool
        /// **Cancel order**, when allowed.
        public var cancel: Cancellation?
        /// The **Refund** link.
        public var refund: Bool

        public init(
            markPacked: Bool = false, markShipped: Bool = false, markDelivered: Bool = false,
            cancel: Cancellation? = nil, refund: Bool = false
        ) {
            self.markPacked = markPacked
            self.markShipped = markShipped
            self.markDelivered = markDelivered
            self.cancel = cancel
            self.refund = refund
        }

        /// What `fulfilment` allows (``CheckoutKit/FulfilmentStatus/next``): cancelling only with
        /// something left to refund, refunding while `remaining` is above zero and `mayRefund`.
        public static func allowed(
            fulfilment: FulfilmentStatus, remaining: Money, cancelIdempotencyKey: String, mayRefund: Bool = true
        ) -> Actions {
            let next = fulfilment.next
            return Actions(
                markPacked: next.contains(.packed), markShipped: next.contains(.shipped),
                markDelivered: next.contains(.delivered),
                cancel: next.contains(.cancelled)
                    ? Cancellation(idempotencyKey: cancelIdempotencyKey, refund: remaining) : nil,
                refund: mayRefund && remaining.isPositive)
        }

        /// Whether there is any action at all.
        public var isEmpty: Bool { self == Actions() }
    }

    /// The order's id, `ord_…`.
    public var id: String
    public var placedAt: Date
    public var lines: [Line]
    public var amounts: Amounts
    public var payment: Payment
    /// The customer, or `nil` for a guest's order.
    public var customer: Customer?
    public var fulfilment: FulfilmentStatus
    public var trackingNumber: String?
    /// Oldest first.
    public var timeline: [TimelineEntry]
    /// Oldest first.
    public var refunds: [Refund]
    public var actions: Actions
    /// The **Tracking number** as typed, put back with its problem after a refused **Mark shipped**.
    public var trackingNumberInput: String
    public var trackingNumberError: String?

    public init(
        id: String, placedAt: Date, lines: [Line], amounts: Amounts, payment: Payment, customer: Customer?,
        fulfilment: FulfilmentStatus, trackingNumber: String? = nil, timeline: [TimelineEntry], refunds: [Refund],
        actions: Actions, trackingNumberInput: String = "", trackingNumberError: String? = nil
    ) {
        self.id = id
        self.placedAt = placedAt
        self.lines = lines
        self.amounts = amounts
        self.payment = payment
        self.customer = customer
        self.fulfilment = fulfilment
        self.trackingNumber = trackingNumber
        self.timeline = timeline
        self.refunds = refunds
        self.actions = actions
        self.trackingNumberInput = trackingNumberInput
        self.trackingNumberError = trackingNumberError
    }
}
