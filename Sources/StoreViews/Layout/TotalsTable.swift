import CheckoutKit
import HTML

/// The table of sums: subtotal, discount, shipping, and the total; at review and on receipts also
/// the payment fee and what is (or was) charged.
enum TotalsTable {
    /// One row: a label and an amount; the last row of a table is its emphasized total.
    struct Row {
        let label: String
        let amount: String
        var id: String?

        init(_ label: String, _ amount: String, id: String? = nil) {
            self.label = label
            self.amount = amount
            self.id = id
        }
    }

    /// Subtotal, discount, shipping, total.
    static func basket(_ totals: BasketTotals, context: PageContext) -> Node {
        table(rows(totals, context: context) + [Row("Total", context.money(totals.total), id: "basket-total")])
    }

    /// Subtotal, discount, shipping, the order total, the payment fee and the amount due.
    static func payment(_ totals: BasketTotals, option: PaymentQuote, context: PageContext) -> Node {
        table(
            rows(totals, context: context) + [
                Row("Order total", context.money(totals.total)),
                Row("Payment fee (\(option.kind.displayName))", context.money(option.fee)),
                Row("To pay", context.money(option.amountDue), id: "amount-due"),
            ])
    }

    /// A receipt's sums, ending with the total charged.
    static func receipt(_ receipt: OrderReceipt, context: PageContext) -> Node {
        let discountLabel = receipt.promotionCode.map { "Discount (\($0))" } ?? "Discount"
        return table([
            Row("Subtotal", context.money(receipt.subtotal)),
            Row(discountLabel, context.deduction(receipt.discount)),
            Row("Shipping", shippingText(receipt.shipping, isProMember: false, context: context)),
            Row("Payment fee (\(receipt.method.displayName))", context.money(receipt.fee)),
            Row("Total charged", context.money(receipt.total)),
        ])
    }

    private static func rows(_ totals: BasketTotals, context: PageContext) -> [Row] {
        let discountLabel = totals.promotionCode.map { "Discount (\($0))" } ?? "Discount"
        return [
            Row("Subtotal", context.money(totals.subtotal)),
            Row(discountLabel, context.deduction(totals.discount)),
            Row("Shipping", shippingText(totals.shipping, isProMember: totals.isProMember, context: context)),
        ]
    }

    private static func shippingText(_ shipping: Money, isProMember: Bool, context: PageContext) -> String {
        guard shipping.isZero else { return context.money(shipping) }
        return context.money(shipping) + (isProMember ? " (free with Pro)" : " (free)")
    }

    private static func table(_ rows: [Row]) -> Node {
        let body = rows.enumerated().map { index, row in
            let isTotal = index == rows.count - 1
            var attributes: [Attribute] = isTotal ? [.class("total")] : []
            if let id = row.id { attributes.append(.id(id)) }
            return Node.tr(attributes, .th([.scope("row")], row.label), .td([], row.amount))
        }
        return .table([.class("totals")], .tbody(.fragment(body)))
    }
}
