import CheckoutKit
import Foundation

/// Euros from a literal number of cents.
func eur(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .eur) }

func code(_ text: String) -> PromotionCode {
    guard let code = PromotionCode(text) else { fatalError("test code \(text) is malformed") }
    return code
}

func quantity(_ value: Int) -> Quantity {
    guard let quantity = Quantity(value) else { fatalError("test quantity \(value) is out of range") }
    return quantity
}

func percent(_ value: Int) -> Rate {
    guard let rate = Rate(percent: value) else { fatalError("test percentage \(value) is out of range") }
    return rate
}

func basisPoints(_ value: Int) -> Rate {
    guard let rate = Rate(basisPoints: value) else { fatalError("test rate \(value) is out of range") }
    return rate
}

/// The three products of docs/BEHAVIOUR.md §3's worked cases.
enum Catalog {
    static let waterBottle = BasketLine(
        productID: ProductID(1), title: "Water bottle", unitPrice: eur(10_20), quantity: .one)
    static let cap = BasketLine(productID: ProductID(2), title: "Cap", unitPrice: eur(21_90), quantity: .one)
    static func socks(_ count: Int) -> BasketLine {
        BasketLine(productID: ProductID(3), title: "Running socks", unitPrice: eur(8_95), quantity: quantity(count))
    }
}

/// The seeded promotions of docs/BEHAVIOUR.md §4.
enum Promotions {
    static let run10 = Promotion(code: code("RUN10"), kind: .percentOff(percent(10)), minimumSubtotal: eur(0))
    static let gift25 = Promotion(code: code("GIFT25"), kind: .amountOff(eur(25_00)), minimumSubtotal: eur(0))
    static let big20 = Promotion(code: code("BIG20"), kind: .percentOff(percent(20)), minimumSubtotal: eur(100_00))
}

let referenceDate = Date(timeIntervalSince1970: 1_780_000_000)
