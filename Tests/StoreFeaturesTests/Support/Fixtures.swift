import CheckoutKit
import Foundation
import StoreAPI
import StoreClient
import StoreFeatures

/// Euros from a literal number of cents.
func eur(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .eur) }

/// The locale every test writes amounts in.
let enUS = Locale(identifier: "en_US")

let referenceDate = Date(timeIntervalSince1970: 1_780_000_000)

/// The products of docs/BEHAVIOUR.md §3's worked cases, as the API shows them.
enum Catalog {
    static let waterBottle = product(1, "Water bottle", eur(10_20))
    static let cap = product(2, "Cap", eur(21_90))
    static let socks = product(3, "Running socks", eur(8_95))
    static let all = [waterBottle, cap, socks]

    static func product(_ id: Int64, _ title: String, _ price: Money) -> ProductBody {
        ProductBody(
            id: id, title: title, description: "\(title), for testing.", category: "running", price: price,
            image: "/images/\(id).svg", rating: RatingBody(rate: 4, count: 10), stock: 25)
    }
}

/// The seeded promotions of docs/BEHAVIOUR.md §4.
enum Promotions {
    static let gift25 = promotion("GIFT25", .amountOff(eur(25_00)))

    private static func promotion(_ text: String, _ kind: Promotion.Kind) -> Promotion {
        guard let code = PromotionCode(text) else { fatalError("test code \(text) is malformed") }
        return Promotion(code: code, kind: kind, minimumSubtotal: eur(0))
    }
}

/// A basket priced exactly as the server prices it — CheckoutKit's pricing, the standard shipping
/// and fee policies, the same `BasketBody` initializer — for fakes to answer with.
struct ServerBasket {
    private(set) var lines: [BasketLine] = []
    var promotion: Promotion?
    var tier: Tier = .free

    init(_ lines: [(ProductBody, Int)] = [], promotion: Promotion? = nil) {
        for (product, quantity) in lines { set(quantity, of: product.id) }
        self.promotion = promotion
    }

    /// `PUT /api/basket/items/{id}`.
    mutating func set(_ quantity: Int, of productID: Int64) {
        guard let product = Catalog.all.first(where: { $0.id == productID }), let quantity = Quantity(quantity) else {
            fatalError("test basket line \(productID) ×\(quantity) is not possible")
        }
        let line = BasketLine(
            productID: ProductID(product.id), title: product.title, unitPrice: product.price, quantity: quantity)
        if let index = lines.firstIndex(where: { $0.productID.rawValue == productID }) {
            lines[index] = line
        } else {
            lines.append(line)
        }
    }

    /// `DELETE /api/basket/items/{id}`.
    mutating func remove(_ productID: Int64) {
        lines.removeAll { $0.productID.rawValue == productID }
    }

    /// `GET /api/basket`.
    var body: BasketBody {
        do {
            let price = try Pricing.price(lines, promotion: promotion, tier: tier, shipping: .standard)
            return try BasketBody(
                lines: lines, price: price, promotion: promotion,
                quotes: try FeePolicy.standard.quotes(total: price.total),
                locale: enUS)
        } catch {
            fatalError("test basket cannot be priced: \(error)")
        }
    }
}

/// A paid order for `total`.
func order(_ id: String, total: Money = eur(26_85)) -> OrderBody {
    OrderBody(
        id: id, status: "paid",
        lines: [LineItemBody(productID: 2, title: "Cap", unitPrice: eur(21_90), quantity: 1, lineTotal: eur(21_90))],
        subtotal: eur(21_90), discount: eur(0), shipping: eur(4_95), fee: eur(0), total: total,
        paymentMethod: PaymentMethodBody(type: "qr_code"), promotion: nil, createdAt: referenceDate)
}

/// Makes keys `key-1`, `key-2`… and remembers them.
@MainActor
final class KeyMaker {
    private(set) var made: [IdempotencyKey] = []

    func make() -> IdempotencyKey {
        let key = IdempotencyKey(rawValue: "key-\(made.count + 1)") ?? .random()
        made.append(key)
        return key
    }
}

/// A clock a test sets.
@MainActor
final class TestClock {
    var now: Date

    init(_ now: Date = referenceDate) {
        self.now = now
    }
}

/// Waits that return at once and are remembered.
@MainActor
final class Waits {
    private(set) var durations: [Duration] = []

    func wait(_ duration: Duration) {
        durations.append(duration)
    }
}
