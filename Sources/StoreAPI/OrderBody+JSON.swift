import CheckoutKit
import Foundation

extension OrderBody {
    /// The order as ``StoreJSON/encoder`` writes it, byte for byte, written directly: a checkout
    /// answers and keeps one for every order paid, and `JSONEncoder` was a twentieth of a
    /// checkout's CPU. An order with refunds (never a fresh one) goes through the encoder.
    public func encodedJSON() throws -> [UInt8] {
        guard refunds.isEmpty else { return Array(try StoreJSON.encoder.encode(self)) }
        var json = JSONText()
        json.bytes.reserveCapacity(320 + lines.count * 200)
        // Keys in sorted order, as the encoder's `.sortedKeys` writes them.
        json.raw("{\"created_at\":")
        json.string(StoreJSON.timestamp(createdAt))
        json.raw(",\"discount\":")
        json.money(discount)
        json.raw(",\"fee\":")
        json.money(fee)
        json.raw(",\"id\":")
        json.string(id)
        json.raw(",\"lines\":[")
        for (index, line) in lines.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("{\"line_total\":")
            json.money(line.lineTotal)
            json.raw(",\"product_id\":")
            json.integer(line.productID)
            json.raw(",\"quantity\":")
            json.integer(Int64(line.quantity))
            json.raw(",\"title\":")
            json.string(line.title)
            json.raw(",\"unit_price\":")
            json.money(line.unitPrice)
            json.raw("}")
        }
        json.raw("],\"payment_method\":{")
        if let brand = paymentMethod.brand {
            json.raw("\"brand\":")
            json.string(brand)
            json.raw(",")
        }
        if let token = paymentMethod.token {
            json.raw("\"token\":")
            json.string(token)
            json.raw(",")
        }
        json.raw("\"type\":")
        json.string(paymentMethod.type)
        json.raw("},\"payment_status\":")
        json.string(paymentStatus)
        if let promotion {
            json.raw(",\"promotion\":")
            json.string(promotion)
        }
        json.raw(",\"refunds\":[],\"shipping\":")
        json.money(shipping)
        json.raw(",\"status\":")
        json.string(status)
        json.raw(",\"subtotal\":")
        json.money(subtotal)
        json.raw(",\"total\":")
        json.money(total)
        json.raw("}")
        return json.bytes
    }
}
