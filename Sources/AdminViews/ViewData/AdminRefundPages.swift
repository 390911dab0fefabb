import CheckoutKit

/// The refund form's fields as typed (docs/BEHAVIOUR.md §14): units of each line with **Restock**,
/// **Refund shipping**, or a goodwill **Amount**; a **Reason** and a **Note**; and what is wrong
/// with them.
public struct AdminRefundForm: Hashable, Sendable {
    /// A field of the form, for its problem.
    public enum Field: Hashable, Sendable {
        /// The units of the line at this position.
        case quantity(Int)
        /// The items as a whole: nothing chosen, more than remains.
        case items
        case shipping
        case amount
        case reason
        case note
    }

    /// The units of each line (by position), as typed; a line not listed is 0.
    public var quantities: [Int: String]
    /// The lines (by position) whose **Restock** is checked.
    public var restock: Set<Int>
    public var shipping: Bool
    /// A goodwill amount as typed; empty for none.
    public var amount: String
    /// The reason chosen; `nil` before one is.
    public var reason: RefundReasonKind?
    public var note: String
    public var errors: [Field: String]

    public init(
        quantities: [Int: String] = [:], restock: Set<Int> = [], shipping: Bool = false, amount: String = "",
        reason: RefundReasonKind? = nil, note: String = "", errors: [Field: String] = [:]
    ) {
        self.quantities = quantities
        self.restock = restock
        self.shipping = shipping
        self.amount = amount
        self.reason = reason
        self.note = note
        self.errors = errors
    }

    /// The form as first shown for an order of `lineCount` lines: nothing chosen, **Restock** on for
    /// every line.
    public static func fresh(lineCount: Int) -> AdminRefundForm {
        AdminRefundForm(restock: Set(0..<max(0, lineCount)))
    }

    /// The fields as the form sends them (``AdminFormFields``), empty ones left out: the review's
    /// **Change** link and its confirming form carry them.
    public var parameters: [(String, String)] {
        var pairs: [(String, String)] = []
        for position in Set(quantities.keys).union(restock).sorted() {
            pairs.append((AdminFormFields.refundQuantity(position), quantities[position] ?? ""))
            if restock.contains(position) {
                pairs.append((AdminFormFields.refundRestock(position), AdminFormFields.checkedValue))
            }
        }
        if shipping { pairs.append((AdminFormFields.refundShipping, AdminFormFields.checkedValue)) }
        pairs.append((AdminFormFields.refundAmount, amount))
        pairs.append((AdminFormFields.reason, reason?.rawValue ?? ""))
        pairs.append((AdminFormFields.note, note))
        return pairs.filter { !$0.1.isEmpty }
    }

    /// The reasons a member of staff may choose: every kind but the one **Cancel order** gives.
    public static let reasons = RefundReasonKind.allCases.filter { $0 != .cancelled }
}

/// The refund form at `/admin/orders/{id}/refund`: what each line was paid and has left to refund,
/// the shipping while it may be refunded, and what remains of the payment.
public struct AdminRefundPage: Hashable, Sendable {
    /// A line of the order as a refund sees it.
    public struct Line: Hashable, Sendable {
        /// Its place in the order, from 0.
        public var position: Int
        public var title: String
        /// Units bought.
        public var quantity: Int
        /// Units no refund holds yet.
        public var refundable: Int
        /// What the line was paid: its total less its share of the order's discount.
        public var paid: Money

        public init(position: Int, title: String, quantity: Int, refundable: Int, paid: Money) {
            self.position = position
            self.title = title
            self.quantity = quantity
            self.refundable = refundable
            self.paid = paid
        }
    }

    /// The order's id, `ord_…`.
    public var orderID: String
    public var lines: [Line]
    /// The shipping, while it may be refunded; `nil` when it was free or a refund holds it.
    public var refundableShipping: Money?
    /// What was charged.
    public var paid: Money
    /// What refunds hold so far, pending or succeeded.
    public var refunded: Money
    /// What may still be refunded.
    public var remaining: Money
    public var form: AdminRefundForm

    public init(
        orderID: String, lines: [Line], refundableShipping: Money?, paid: Money, refunded: Money, remaining: Money,
        form: AdminRefundForm
    ) {
        self.orderID = orderID
        self.lines = lines
        self.refundableShipping = refundableShipping
        self.paid = paid
        self.refunded = refunded
        self.remaining = remaining
        self.form = form
    }

    /// The id of the control a problem of `field` is shown beside.
    public func fieldID(_ field: AdminRefundForm.Field) -> String {
        switch field {
        case .quantity(let position): "quantity-\(position)"
        case .items:
            lines.first { $0.refundable > 0 }.map { "quantity-\($0.position)" }
                ?? (refundableShipping == nil ? "refund-amount" : "refund-shipping")
        case .shipping: "refund-shipping"
        case .amount: "refund-amount"
        case .reason: "refund-reason"
        case .note: "refund-note"
        }
    }

    /// The form's problems in the order of its fields, each with the id of its control.
    public var problems: [(fieldID: String, message: String)] {
        let order: [AdminRefundForm.Field] =
            [.items] + lines.map { .quantity($0.position) } + [.shipping, .amount, .reason, .note]
        return order.compactMap { field in form.errors[field].map { (fieldID(field), $0) } }
    }
}

/// The review of a refund at `/admin/orders/{id}/refund/review`: what it gives back, made of what,
/// why, and **Refund €X.XX** with the key minted for it.
public struct AdminRefundReview: Hashable, Sendable {
    /// Units of a line the refund gives back.
    public struct Line: Hashable, Sendable {
        public var title: String
        public var quantity: Int
        public var amount: Money
        public var restock: Bool

        public init(title: String, quantity: Int, amount: Money, restock: Bool) {
            self.title = title
            self.quantity = quantity
            self.amount = amount
            self.restock = restock
        }
    }

    /// The order's id, `ord_…`.
    public var orderID: String
    /// The form as typed, sent again by **Refund €X.XX** (and by the **Change** link).
    public var form: AdminRefundForm
    public var lines: [Line]
    public var shipping: Money
    /// The payment fee, given back only with a full refund.
    public var fee: Money
    /// A goodwill amount, for a refund of no items.
    public var goodwill: Money?
    /// What the refund gives back in all.
    public var amount: Money
    public var reason: RefundReasonKind
    public var note: String?
    /// Where the money goes back to: `Card (Visa)`.
    public var paymentMethod: String
    /// What may still be refunded once this refund is made.
    public var remainingAfter: Money
    /// Minted when the review is shown; sent back in the hidden `idempotency_key` field, so the same
    /// form sent twice refunds once.
    public var idempotencyKey: String

    public init(
        orderID: String, form: AdminRefundForm, lines: [Line], shipping: Money, fee: Money, goodwill: Money?,
        amount: Money, reason: RefundReasonKind, note: String?, paymentMethod: String, remainingAfter: Money,
        idempotencyKey: String
    ) {
        self.orderID = orderID
        self.form = form
        self.lines = lines
        self.shipping = shipping
        self.fee = fee
        self.goodwill = goodwill
        self.amount = amount
        self.reason = reason
        self.note = note
        self.paymentMethod = paymentMethod
        self.remainingAfter = remainingAfter
        self.idempotencyKey = idempotencyKey
    }
}
