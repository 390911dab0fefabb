/// An order as a refund sees it (docs/BEHAVIOUR.md §14): what was paid for each line, the
/// shipping and the fee, and what the refunds recorded so far — pending or succeeded — already
/// hold. A failed refund holds nothing.
public struct RefundableOrder: Hashable, Sendable {
    public let lines: [OrderLine]
    public let discount: Money
    public let shipping: Money
    public let fee: Money
    /// What was charged.
    public let total: Money
    public let fulfilment: FulfilmentStatus
    /// Units of each line (by position) that refunds already hold.
    public let heldUnits: [Int]
    /// Whether a refund already holds the shipping.
    public let shippingHeld: Bool
    /// Whether a refund already holds the payment fee.
    public let feeHeld: Bool
    /// What refunds already hold, together.
    public let heldAmount: Money

    public init(
        lines: [OrderLine], discount: Money, shipping: Money, fee: Money, total: Money, fulfilment: FulfilmentStatus,
        heldUnits: [Int], shippingHeld: Bool, feeHeld: Bool, heldAmount: Money
    ) {
        self.lines = lines
        self.discount = discount
        self.shipping = shipping
        self.fee = fee
        self.total = total
        self.fulfilment = fulfilment
        self.heldUnits = heldUnits.count == lines.count ? heldUnits : lines.map { _ in 0 }
        self.shippingHeld = shippingHeld
        self.feeHeld = feeHeld
        self.heldAmount = heldAmount
    }

    /// What may still be refunded: the amount charged less what refunds hold.
    public var remaining: Money {
        Money(minorUnits: max(0, total.minorUnits - heldAmount.minorUnits), currency: total.currency)
    }

    /// Units of the line at `position` that no refund holds yet.
    public func refundableUnits(at position: Int) -> Int {
        guard lines.indices.contains(position) else { return 0 }
        return max(0, lines[position].quantity - heldUnits[position])
    }

    /// What each line was paid: its total less its share of the discount.
    public var paidPerLine: [Money] {
        let shares = DiscountAllocation.shares(of: discount, over: lines.map(\.lineTotal))
        return zip(lines, shares).map { line, share in
            Money(minorUnits: line.lineTotal.minorUnits - share.minorUnits, currency: line.lineTotal.currency)
        }
    }

    /// What `quantity` more units of the line at `position` give back, after the units refunds
    /// already hold: the line's paid amount × units ÷ quantity, rounded down at each count of
    /// units, so that the units refunded, in any steps, always add up to exactly what the line
    /// was paid.
    public func amount(ofUnits quantity: Int, at position: Int) -> Money {
        let paid = paidPerLine[position]
        let line = lines[position]
        let held = heldUnits[position]
        let before = Self.proportion(paid.minorUnits, held, line.quantity)
        let after = Self.proportion(paid.minorUnits, held + quantity, line.quantity)
        return Money(minorUnits: after - before, currency: paid.currency)
    }

    /// ⌊amount × part ÷ whole⌋ without overflow, for 0 ≤ part ≤ whole.
    static func proportion(_ amount: Int64, _ part: Int, _ whole: Int) -> Int64 {
        guard whole > 0, part > 0 else { return 0 }
        guard part < whole else { return amount }
        let product = amount.multipliedFullWidth(by: Int64(part))
        return Int64(whole).dividingFullWidth(product).quotient
    }
}

/// How the order's discount is shared over its lines (docs/BEHAVIOUR.md §14): in proportion to
/// each line's total, rounded down, with the cents left over going one each to the largest lines
/// (the earlier line first among equals). The shares always sum to the discount exactly, none is
/// negative and none is more than its line's total.
public enum DiscountAllocation {
    /// The share of `discount` of each of `totals`, in their order.
    public static func shares(of discount: Money, over totals: [Money]) -> [Money] {
        let currency = discount.currency
        let whole = totals.reduce(Int64(0)) { $0 + max(0, $1.minorUnits) }
        guard discount.minorUnits > 0, whole > 0 else { return totals.map { _ in .zero(currency) } }
        // A discount larger than what it discounts takes each line whole.
        let shared = min(discount.minorUnits, whole)
        var shares = totals.map { total -> Int64 in
            let part = max(0, total.minorUnits)
            return whole.dividingFullWidth(shared.multipliedFullWidth(by: part)).quotient
        }
        var left = shared - shares.reduce(0, +)
        let largestFirst = totals.indices.sorted { lhs, rhs in
            totals[lhs].minorUnits != totals[rhs].minorUnits
                ? totals[lhs].minorUnits > totals[rhs].minorUnits : lhs < rhs
        }
        for index in largestFirst where left > 0 && shares[index] < max(0, totals[index].minorUnits) {
            shares[index] += 1
            left -= 1
        }
        return shares.map { Money(minorUnits: $0, currency: currency) }
    }
}

/// What a member of staff chose to refund.
public enum RefundSelection: Hashable, Sendable {
    /// Units of lines, each going back into stock or not, and maybe the shipping.
    case lines([LineChoice], shipping: Bool)
    /// An amount of goodwill, with nothing returned.
    case goodwill(Money)
    /// **Cancel order**: everything not yet refunded, every unit back into stock.
    case cancellation

    /// Some units of one line.
    public struct LineChoice: Hashable, Sendable {
        public let position: Int
        public let quantity: Int
        public let restock: Bool

        public init(position: Int, quantity: Int, restock: Bool) {
            self.position = position
            self.quantity = quantity
            self.restock = restock
        }
    }

    public var kind: RefundKind {
        switch self {
        case .lines: .lines
        case .goodwill: .goodwill
        case .cancellation: .cancellation
        }
    }
}

/// Why a refund cannot be made as chosen; nothing was recorded and no provider was called.
public enum RefundPlanError: Error, Hashable, Sendable {
    /// No line, no shipping, no amount.
    case nothingSelected
    /// The order has no line at this position.
    case unknownLine(position: Int)
    /// A line named twice.
    case duplicateLine(position: Int)
    /// More units than the line has left to refund (`refundable`), or fewer than one.
    case quantityNotRefundable(position: Int, refundable: Int)
    /// The shipping was free, or a refund already holds it.
    case shippingNotRefundable
    /// A goodwill amount of zero or less, or in another currency.
    case invalidAmount
    /// What was chosen gives back nothing (the lines were paid nothing).
    case nothingToRefund
    /// More than what remains of the payment: `remaining`.
    case exceedsRemaining(remaining: Money)
    /// Only an order not shipped yet can be cancelled; this one is `fulfilment`.
    case notCancellable(FulfilmentStatus)
}

/// One refund, decided (docs/BEHAVIOUR.md §14): its kind, the amount it gives back and what that
/// is made of. Pure: the same order and choice always make the same plan.
public struct RefundPlan: Hashable, Sendable {
    public let kind: RefundKind
    public let amount: Money
    public let lines: [RefundLine]
    public let shipping: Money
    public let fee: Money

    /// The refund of `selection` from `order`.
    ///
    /// - Lines: each chosen unit gives back its share of what its line was paid; the shipping when
    ///   chosen; the payment fee only when, with this refund, every unit and the shipping are
    ///   refunded (a full refund).
    /// - Goodwill: the amount, nothing else.
    /// - Cancellation (unfulfilled or packed orders only): all that remains of the payment, every
    ///   unit not yet refunded going back into stock.
    ///
    /// - Throws: ``RefundPlanError``.
    public init(_ selection: RefundSelection, for order: RefundableOrder) throws(RefundPlanError) {
        let currency = order.total.currency
        let zero = Money.zero(currency)
        kind = selection.kind
        switch selection {
        case .goodwill(let amount):
            guard amount.isPositive, amount.currency == currency else { throw .invalidAmount }
            (lines, shipping, fee) = ([], zero, zero)
            self.amount = amount

        case .cancellation:
            guard order.fulfilment == .unfulfilled || order.fulfilment == .packed else {
                throw .notCancellable(order.fulfilment)
            }
            lines = order.lines.indices.compactMap { position in
                let units = order.refundableUnits(at: position)
                guard units > 0 else { return nil }
                return Self.line(order, position: position, quantity: units, restock: true)
            }
            shipping = order.shippingHeld ? zero : order.shipping
            fee = order.feeHeld ? zero : order.fee
            // Goodwill given before counts against it: what is given back is what remains.
            amount = order.remaining

        case .lines(let choices, let includeShipping):
            guard !choices.isEmpty || includeShipping else { throw .nothingSelected }
            var seen = Set<Int>()
            var chosen: [RefundLine] = []
            var unitsLeft = order.lines.indices.map(order.refundableUnits(at:))
            for choice in choices.sorted(by: { $0.position < $1.position }) {
                guard order.lines.indices.contains(choice.position) else {
                    throw .unknownLine(position: choice.position)
                }
                guard seen.insert(choice.position).inserted else { throw .duplicateLine(position: choice.position) }
                let refundable = unitsLeft[choice.position]
                guard choice.quantity >= 1, choice.quantity <= refundable else {
                    throw .quantityNotRefundable(position: choice.position, refundable: refundable)
                }
                unitsLeft[choice.position] -= choice.quantity
                chosen.append(
                    Self.line(order, position: choice.position, quantity: choice.quantity, restock: choice.restock))
            }
            if includeShipping, order.shipping.minorUnits <= 0 || order.shippingHeld {
                throw .shippingNotRefundable
            }
            let shippingDone = includeShipping || order.shippingHeld || order.shipping.isZero
            let isFull = shippingDone && unitsLeft.allSatisfy { $0 == 0 }
            lines = chosen
            shipping = includeShipping ? order.shipping : zero
            fee = isFull && !order.feeHeld ? order.fee : zero
            let sum = chosen.reduce(Int64(0)) { $0 + $1.amount.minorUnits } + shipping.minorUnits + fee.minorUnits
            guard sum > 0 else { throw .nothingToRefund }
            amount = Money(minorUnits: sum, currency: currency)
        }
        if kind != .cancellation, amount.minorUnits > order.remaining.minorUnits {
            throw .exceedsRemaining(remaining: order.remaining)
        }
    }

    private static func line(_ order: RefundableOrder, position: Int, quantity: Int, restock: Bool) -> RefundLine {
        let line = order.lines[position]
        return RefundLine(
            position: position, productID: line.productID, title: line.title, quantity: quantity,
            amount: order.amount(ofUnits: quantity, at: position), restock: restock)
    }
}
