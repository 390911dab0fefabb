import CheckoutKit
import Testing

/// docs/BEHAVIOUR.md §14: what a refund gives back, decided before anything is recorded.
@Suite struct RefundPlanTests {
    /// Two running socks (€17.90) and a cap (€21.90), RUN10 (−€3.98), shipping €4.95, card fee
    /// €0.33: €41.10 charged.
    static let lines = [
        OrderLine(
            productID: ProductID(3), title: "Running socks", unitPrice: eur(8_95), quantity: 2, lineTotal: eur(17_90)),
        OrderLine(productID: ProductID(2), title: "Cap", unitPrice: eur(21_90), quantity: 1, lineTotal: eur(21_90)),
    ]

    static func order(
        heldUnits: [Int] = [0, 0], shippingHeld: Bool = false, feeHeld: Bool = false, held: Int64 = 0,
        fulfilment: FulfilmentStatus = .unfulfilled
    ) -> RefundableOrder {
        RefundableOrder(
            lines: lines, discount: eur(3_98), shipping: eur(4_95), fee: eur(33), total: eur(41_10),
            fulfilment: fulfilment, heldUnits: heldUnits, shippingHeld: shippingHeld, feeHeld: feeHeld,
            heldAmount: eur(held))
    }

    @Test func theDiscountIsSharedInProportionWithTheCentLeftToTheLargestLine() {
        // 3.98 × 17.90 / 39.80 = 1.79, 3.98 × 21.90 / 39.80 = 2.19: exact.
        #expect(DiscountAllocation.shares(of: eur(3_98), over: [eur(17_90), eur(21_90)]) == [eur(1_79), eur(2_19)])
        // €1.00 over three €1.00 lines: 33 each, the cent left to the first of the equals.
        #expect(
            DiscountAllocation.shares(of: eur(1_00), over: [eur(1_00), eur(1_00), eur(1_00)])
                == [eur(34), eur(33), eur(33)])
        // €0.10 over €1.00 and €3.00: 2.5 and 7.5 cents → 2 and 7, the cent to the larger line.
        #expect(DiscountAllocation.shares(of: eur(10), over: [eur(1_00), eur(3_00)]) == [eur(2), eur(8)])
        #expect(DiscountAllocation.shares(of: eur(0), over: [eur(1_00)]) == [eur(0)])
        #expect(DiscountAllocation.shares(of: eur(5_00), over: []) == [])
    }

    @Test func oneUnitOfALineGivesBackItsShareOfWhatTheLineWasPaid() throws {
        let plan = try RefundPlan(
            .lines([.init(position: 0, quantity: 1, restock: true)], shipping: false), for: Self.order())
        // The socks were paid 17.90 − 1.79 = 16.11: one of two is 8.05, the other 8.06.
        #expect(plan.amount == eur(8_05))
        #expect(
            plan.lines == [
                RefundLine(
                    position: 0, productID: ProductID(3), title: "Running socks", quantity: 1, amount: eur(8_05),
                    restock: true)
            ])
        #expect(plan.fee == eur(0) && plan.shipping == eur(0) && plan.kind == .lines)
        let second = try RefundPlan(
            .lines([.init(position: 0, quantity: 1, restock: false)], shipping: false),
            for: Self.order(heldUnits: [1, 0], held: 8_05))
        #expect(second.amount == eur(8_06))
    }

    @Test func everythingRefundedInStepsIsExactlyWhatWasCharged() throws {
        let first = try RefundPlan(
            .lines([.init(position: 1, quantity: 1, restock: true)], shipping: true), for: Self.order())
        #expect(first.amount == eur(19_71 + 4_95))
        #expect(first.fee == eur(0))
        let last = try RefundPlan(
            .lines([.init(position: 0, quantity: 2, restock: true)], shipping: false),
            for: Self.order(heldUnits: [0, 1], shippingHeld: true, held: 24_66))
        // The last units make it a full refund: the fee goes back with them.
        #expect(last.fee == eur(33))
        #expect(last.amount == eur(16_11 + 33))
        #expect(first.amount.minorUnits + last.amount.minorUnits == 41_10)
    }

    @Test func aFullRefundInOneGoGivesBackTheFee() throws {
        let plan = try RefundPlan(
            .lines(
                [.init(position: 0, quantity: 2, restock: true), .init(position: 1, quantity: 1, restock: true)],
                shipping: true), for: Self.order())
        #expect(plan.amount == eur(41_10))
        #expect(plan.fee == eur(33))
    }

    @Test func goodwillIsAnAmountUpToWhatRemains() throws {
        #expect(try RefundPlan(.goodwill(eur(5_00)), for: Self.order()).amount == eur(5_00))
        #expect(throws: RefundPlanError.exceedsRemaining(remaining: eur(1_10))) {
            try RefundPlan(.goodwill(eur(5_00)), for: Self.order(held: 40_00))
        }
        #expect(throws: RefundPlanError.invalidAmount) { try RefundPlan(.goodwill(eur(0)), for: Self.order()) }
        #expect(throws: RefundPlanError.invalidAmount) {
            try RefundPlan(.goodwill(Money(minorUnits: 5, currency: .jpy)), for: Self.order())
        }
    }

    @Test func linesBeyondWhatRemainsAreRefused() {
        // A goodwill €30 was given: the cap's €19.71 no longer fits in the €11.10 left.
        #expect(throws: RefundPlanError.exceedsRemaining(remaining: eur(11_10))) {
            try RefundPlan(
                .lines([.init(position: 1, quantity: 1, restock: true)], shipping: false), for: Self.order(held: 30_00))
        }
    }

    @Test func choicesThatCannotBeRefundedAreNamed() {
        let order = Self.order(heldUnits: [2, 0], shippingHeld: true, held: 16_11 + 4_95)
        #expect(throws: RefundPlanError.nothingSelected) { try RefundPlan(.lines([], shipping: false), for: order) }
        #expect(throws: RefundPlanError.unknownLine(position: 2)) {
            try RefundPlan(.lines([.init(position: 2, quantity: 1, restock: true)], shipping: false), for: order)
        }
        #expect(throws: RefundPlanError.quantityNotRefundable(position: 0, refundable: 0)) {
            try RefundPlan(.lines([.init(position: 0, quantity: 1, restock: true)], shipping: false), for: order)
        }
        #expect(throws: RefundPlanError.quantityNotRefundable(position: 1, refundable: 1)) {
            try RefundPlan(.lines([.init(position: 1, quantity: 0, restock: true)], shipping: false), for: order)
        }
        #expect(throws: RefundPlanError.duplicateLine(position: 1)) {
            try RefundPlan(
                .lines(
                    [.init(position: 1, quantity: 1, restock: true), .init(position: 1, quantity: 1, restock: true)],
                    shipping: false), for: Self.order())
        }
        #expect(throws: RefundPlanError.shippingNotRefundable) {
            try RefundPlan(.lines([], shipping: true), for: order)
        }
    }

    @Test func cancellingGivesBackAllThatRemainsAndRestocksEveryUnitLeft() throws {
        let plan = try RefundPlan(.cancellation, for: Self.order(heldUnits: [1, 0], held: 8_05, fulfilment: .packed))
        #expect(plan.kind == .cancellation)
        #expect(plan.amount == eur(41_10 - 8_05))
        #expect(plan.lines.map(\.quantity) == [1, 1])
        #expect(plan.lines.allSatisfy { $0.restock })
        #expect(plan.shipping == eur(4_95) && plan.fee == eur(33))
        for fulfilment in [FulfilmentStatus.shipped, .delivered, .cancelled] {
            let order = Self.order(fulfilment: fulfilment)
            let refusal = RefundPlanError.notCancellable(fulfilment)
            #expect(throws: refusal) { try RefundPlan(.cancellation, for: order) }
        }
    }

    @Test func thePaymentStatusFollowsWhatWentBack() {
        #expect(PaymentStatus.of(charged: eur(41_10), refunded: eur(0)) == .paid)
        #expect(PaymentStatus.of(charged: eur(41_10), refunded: eur(1)) == .partiallyRefunded)
        #expect(PaymentStatus.of(charged: eur(41_10), refunded: eur(41_10)) == .refunded)
    }

    @Test func aReasonsNoteIsBoundedAndNeverACardNumber() {
        #expect(RefundReason(kind: .damaged, note: "  ")?.note == nil)
        #expect(RefundReason(kind: .other, note: String(repeating: "a", count: 501)) == nil)
        #expect(RefundReason(kind: .other, note: "card 4242 4242 4242 4242") == nil)
        #expect(RefundReason(kind: .other, note: " Box crushed ")?.note == "Box crushed")
    }

    // MARK: Properties

    /// Over thousands of random orders (seed 20261205): the shares sum to the discount, none is
    /// negative or more than its line; and refunding every unit in random steps gives back exactly
    /// what each line was paid, never more than what was charged.
    @Test func sharesAndStepsAddUpExactly() throws {
        var generator = SplitMix64(seed: 20_261_205)
        for _ in 0..<3_000 {
            let count = Int.random(in: 1...8, using: &generator)
            let lines = (0..<count).map { index in
                let quantity = Int.random(in: 1...10, using: &generator)
                let unit = eur(Int64.random(in: 1...50_000, using: &generator))
                return OrderLine(
                    productID: ProductID(Int64(index + 1)), title: "P\(index)", unitPrice: unit, quantity: quantity,
                    lineTotal: eur(unit.minorUnits * Int64(quantity)))
            }
            let subtotal = lines.reduce(Int64(0)) { $0 + $1.lineTotal.minorUnits }
            let discount = eur(Int64.random(in: 0...subtotal, using: &generator))
            let shares = DiscountAllocation.shares(of: discount, over: lines.map(\.lineTotal))
            #expect(shares.reduce(Int64(0)) { $0 + $1.minorUnits } == discount.minorUnits)
            #expect(zip(shares, lines).allSatisfy { $0.minorUnits >= 0 && $0.minorUnits <= $1.lineTotal.minorUnits })

            let shipping = eur(Int64.random(in: 0...1_000, using: &generator))
            let fee = eur(Int64.random(in: 0...500, using: &generator))
            let total = eur(subtotal - discount.minorUnits + shipping.minorUnits + fee.minorUnits)
            var held = lines.map { _ in 0 }
            var shippingHeld = false
            var feeHeld = false
            var refunded: Int64 = 0
            var paidBack = lines.map { _ in Int64(0) }
            while held != lines.map(\.quantity) || (!shippingHeld && shipping.isPositive) {
                let order = RefundableOrder(
                    lines: lines, discount: discount, shipping: shipping, fee: fee, total: total,
                    fulfilment: .delivered, heldUnits: held, shippingHeld: shippingHeld, feeHeld: feeHeld,
                    heldAmount: eur(refunded))
                let choices = lines.indices.compactMap { position -> RefundSelection.LineChoice? in
                    let left = order.refundableUnits(at: position)
                    guard left > 0, Bool.random(using: &generator) else { return nil }
                    return .init(
                        position: position, quantity: Int.random(in: 1...left, using: &generator), restock: true)
                }
                let withShipping = !shippingHeld && shipping.isPositive && Bool.random(using: &generator)
                guard !choices.isEmpty || withShipping else { continue }
                let planned = Result { () throws(RefundPlanError) in
                    try RefundPlan(.lines(choices, shipping: withShipping), for: order)
                }
                if case .failure(.nothingToRefund) = planned {
                    // Units paid nothing (a discount took the line whole): nothing to give back.
                    for choice in choices { held[choice.position] += choice.quantity }
                    shippingHeld = shippingHeld || withShipping
                    continue
                }
                let plan = try planned.get()
                #expect(plan.lines.allSatisfy { $0.amount.minorUnits >= 0 })
                for line in plan.lines {
                    held[line.position] += line.quantity
                    paidBack[line.position] += line.amount.minorUnits
                }
                shippingHeld = shippingHeld || withShipping
                feeHeld = feeHeld || plan.fee.isPositive
                refunded += plan.amount.minorUnits
                #expect(refunded <= total.minorUnits)
            }
            let paid = RefundableOrder(
                lines: lines, discount: discount, shipping: shipping, fee: fee, total: total, fulfilment: .delivered,
                heldUnits: [], shippingHeld: false, feeHeld: false, heldAmount: eur(0)
            ).paidPerLine
            #expect(paidBack == paid.map(\.minorUnits))
            #expect(refunded == total.minorUnits)
        }
    }
}
