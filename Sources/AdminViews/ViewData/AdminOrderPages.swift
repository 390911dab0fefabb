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
        public var status: PaymentStatus
        public var paid: Money
        /// What the refunds that succeeded gave back.
        public var refunded: Money
        /// What refunds still waiting for the provider's answer hold.
        public var pending: Money
        /// What may still be refunded: paid less what succeeded and pending refunds hold.
        public var remaining: Money

        public init(
            method: PaymentMethod.Kind, cardBrand: String?, status: PaymentStatus, paid: Money, refunded: Money,
            pending: Money? = nil, remaining: Money
        ) {
            self.method = method
            self.cardBrand = cardBrand
            self.status = status
            self.paid = paid
            self.refunded = refunded
            self.pending = pending ?? .zero(paid.currency)
            self.remaining = remaining
        }

        /// `Card (Visa)`, `Payment link`.
        public var methodText: String { Self.methodText(method, cardBrand: cardBrand) }

        /// How a merchant reads a payment method: `Card (Visa)`, `Payment link`.
        public static func methodText(_ method: PaymentMethod.Kind, cardBrand: String?) -> String {
            cardBrand.map { "\(method.displayName) (\(brandName($0)))" } ?? method.displayName
        }

        /// A card brand for people: `visa` → `Visa`.
        static func brandName(_ brand: String) -> String {
            brand.prefix(1).uppercased() + brand.dropFirst()
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
        /// A refund of this amount was asked for (and held against the payment).
        case refundRequested(Money?)
        /// The provider gave this amount back.
        case refunded(Money?)
        /// The provider refused a refund, for this reason (its code).
        case refundFailed(reason: String?)
        /// A refund the provider never saw was taken back: nothing was given back.
        case refundWithdrawn
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
        /// Units of a line the refund gives back.
        public struct Line: Hashable, Sendable {
            public var title: String
            public var quantity: Int
            /// Whether they go (or went) back into stock.
            public var restock: Bool

            public init(title: String, quantity: Int, restock: Bool) {
                self.title = title
                self.quantity = quantity
                self.restock = restock
            }
        }

        public var amount: Money
        public var status: AdminRefundStatus
        public var kind: RefundKind
        public var lines: [Line]
        /// Whether it gives the shipping back.
        public var shipping: Bool
        /// Whether it gives the payment fee back.
        public var fee: Bool
        /// The reason's label: `Arrived damaged`.
        public var reason: String
        public var note: String?
        /// The provider's reason (its code), when it refused the refund.
        public var failure: String?
        /// The member of staff who asked for it.
        public var by: String
        public var at: Date

        public init(
            amount: Money, status: AdminRefundStatus, kind: RefundKind = .lines, lines: [Line] = [],
            shipping: Bool = false, fee: Bool = false, reason: String, note: String? = nil, failure: String? = nil,
            by: String, at: Date
        ) {
            self.amount = amount
            self.status = status
            self.kind = kind
            self.lines = lines
            self.shipping = shipping
            self.fee = fee
            self.reason = reason
            self.note = note
            self.failure = failure
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

        /// What `fulfilment` allows (``CheckoutKit/FulfilmentStatus/next``): cancelling before the
        /// order is shipped, refunding while `remaining` is above zero and `mayRefund`.
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
