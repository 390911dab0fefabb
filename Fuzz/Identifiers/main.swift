// libFuzzer target: what a client sends as an idempotency key or an order id is either refused or
// kept exactly as sent, and an accepted order id has the form the store makes.
import CheckoutKit
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIdentifiers(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let key = IdempotencyKey(rawValue: text) {
        check(key.rawValue == text, "a key is kept as sent")
        check((1...255).contains(text.utf8.count), "a key is 1 to 255 bytes")
        check(text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "a key is visible ASCII")
    }
    if let order = OrderID(parsing: text) {
        check(order.rawValue == text && text.utf8.count == 30 && text.hasPrefix("ord_"), "an order id's form")
    }
    return 0
}
