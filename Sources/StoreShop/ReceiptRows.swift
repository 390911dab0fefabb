import CheckoutKit
import StoreAPI
import StoreFeatures

/// What a receipt shows below its lines, row by row, as both terminal faces print it: the one
/// place the receipt's amounts and their labels are decided.
struct ReceiptTotals {
    struct Row {
        let label: String
        let value: String
        /// The amount charged, set apart.
        let emphasized: Bool
    }

    let rows: [Row]

    init(_ order: OrderBody, money: (Money) -> String) {
        var rows = [Row(label: "Subtotal", value: money(order.subtotal), emphasized: false)]
        if !order.discount.isZero {
            rows.append(Row(label: "Discount", value: "−" + money(order.discount), emphasized: false))
        }
        rows.append(
            Row(label: "Shipping", value: order.shipping.isZero ? "free" : money(order.shipping), emphasized: false))
        rows.append(Row(label: "Fee", value: money(order.fee), emphasized: false))
        rows.append(Row(label: "Total charged", value: money(order.total), emphasized: true))
        self.rows = rows
    }
}

/// What a receipt shows of its payment after the totals, as both terminal faces print it: the
/// status, each refund (`Refunded €10.20 on …` and what it was for) and what went back in all.
struct ReceiptRefundRows {
    enum Row: Equatable {
        /// A label and a value: `Payment  Partially refunded`.
        case fact(label: String, value: String)
        /// One refund's headline.
        case refund(String)
        /// What a refund gave back for, under its headline.
        case part(label: String, value: String)
    }

    let rows: [Row]

    init(_ refunds: ReceiptRefunds, money: (Money) -> String) {
        var rows = [Row.fact(label: "Payment", value: refunds.statusLabel)]
        for entry in refunds.entries {
            rows.append(.refund(entry.isCancellation ? "Order cancelled. " + entry.headline : entry.headline))
            rows += entry.parts.map { .part(label: $0.label, value: money($0.amount)) }
        }
        if !refunds.isEmpty, let refunded = refunds.refunded {
            rows.append(.fact(label: "Refunded in all", value: money(refunded)))
        }
        self.rows = rows
    }
}
