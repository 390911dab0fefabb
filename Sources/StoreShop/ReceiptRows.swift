import CheckoutKit
import StoreAPI

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
