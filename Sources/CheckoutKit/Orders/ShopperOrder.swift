/// An order as its shopper sees it (docs/BEHAVIOUR.md §7, §14): the order, where its payment
/// stands, and the refunds that gave money back or are giving it back.
///
/// A failed refund gave nothing back, so it is never among ``refunds``: the shopper's receipt
/// would otherwise name money they never got.
public struct ShopperOrder: Hashable, Sendable, Identifiable {
    public let order: Order
    /// What succeeded refunds gave back in all.
    public let refunded: Money
    /// The order's succeeded and pending refunds, oldest first; never a failed one.
    public let refunds: [Refund]

    public var id: OrderID { order.id }

    /// `paid`, `partially_refunded` or `refunded`, from what was charged and what went back.
    public var paymentStatus: PaymentStatus { .of(charged: order.total, refunded: refunded) }

    /// `order`, of which `refunded` went back through `refunds` (failed ones are left out).
    public init(order: Order, refunded: Money, refunds: [Refund]) {
        self.order = order
        self.refunded = refunded
        self.refunds = refunds.filter { $0.state != .failed }
    }

    /// A freshly paid order: nothing refunded yet.
    public init(paid order: Order) {
        self.init(order: order, refunded: .zero(order.total.currency), refunds: [])
    }
}
