import CheckoutKit
import Foundation
import StoreViews

/// Euros from a literal number of cents.
func eur(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .eur) }

func rating(_ tenths: Int, _ count: Int) -> Rating {
    guard let rating = Rating(tenths: tenths, count: count) else { fatalError("test rating is out of range") }
    return rating
}

func code(_ text: String) -> PromotionCode {
    guard let code = PromotionCode(text) else { fatalError("test code \(text) is malformed") }
    return code
}

func percent(_ value: Int) -> Rate {
    guard let rate = Rate(percent: value) else { fatalError("test percentage \(value) is out of range") }
    return rate
}

func quantity(_ value: Int) -> Quantity {
    guard let quantity = Quantity(value) else { fatalError("test quantity \(value) is out of range") }
    return quantity
}

/// The two shoppers every page is rendered for.
enum Shopper: String, CaseIterable {
    case anonymous
    case customer

    /// The page context of this shopper with `basketCount` units in the basket.
    func context(basketCount: Int = 4, status: StatusMessage? = nil) -> PageContext {
        PageContext(
            basketCount: basketCount, customerName: self == .customer ? "Ada Lovelace" : nil,
            csrfToken: "csrf-7Hq2v9", status: status)
    }
}

/// Products as the seeded catalog has them (docs/BEHAVIOUR.md §3's three, and a few more).
enum Products {
    static let waterBottle = product(1, "Trail water bottle 750 ml", "hydration", 10_20, "water-bottle", 45, 212, 120)
    static let cap = product(2, "Running cap", "apparel", 21_90, "running-cap", 42, 96, 80)
    static let socks = product(3, "Running socks", "apparel", 8_95, "running-socks", 47, 431, 200)
    static let flask = product(4, "Insulated flask 500 ml", "hydration", 24_50, "insulated-flask", 44, 88, 3)
    static let headTorch = product(11, "LED head torch", "accessories", 34_99, "head-torch", 48, 39, 12)
    static let sunglasses = product(14, "Sport sunglasses", "accessories", 39_00, "sport-sunglasses", 42, 1, 0)
    static let gels = product(15, "Energy gels (6 pack)", "nutrition", 9_90, "energy-gels", 39, 140, 140)

    static let all = [waterBottle, cap, socks, flask, headTorch, sunglasses, gels]
    static let categories = ["hydration", "apparel", "accessories", "nutrition"]

    /// A shop's catalog: the products above and `extra` more bottles (ids from 100), for the
    /// catalog's pages.
    static func many(_ extra: Int) -> [Product] {
        var products = all
        for index in 0..<extra {
            let id = Int64(100 + index)
            let cents = Int64(5_00 + index)
            let stock = index % 7 == 0 ? 0 : 50
            products.append(product(id, "Bottle no. \(index + 1)", "hydration", cents, "water-bottle", 40, 10, stock))
        }
        return products
    }

    private static func product(
        _ id: Int64, _ title: String, _ category: String, _ cents: Int64, _ image: String, _ tenths: Int,
        _ count: Int, _ stock: Int
    ) -> Product {
        Product(
            id: ProductID(id), title: title, description: "About the \(title.lowercased()).", category: category,
            price: eur(cents), imagePath: "/images/\(image).svg", rating: rating(tenths, count), stock: stock)
    }
}

/// The promotions of docs/BEHAVIOUR.md §4.
enum Promotions {
    static let run10 = Promotion(
        code: code("RUN10"), kind: .percentOff(percent(10)), minimumSubtotal: eur(0))
    static let big20 = Promotion(
        code: code("BIG20"), kind: .percentOff(percent(20)), minimumSubtotal: eur(100_00))
}

/// Baskets priced by CheckoutKit, as the server would hand them to the pages.
enum Baskets {
    /// 10.20 + 21.90 + 2 × 8.95 = 50.00 (docs/BEHAVIOUR.md §3).
    static let thresholdLines = [
        BasketLine(product: Products.waterBottle, quantity: .one),
        BasketLine(product: Products.cap, quantity: .one),
        BasketLine(product: Products.socks, quantity: quantity(2)),
    ]
    /// One cap, 21.90.
    static let capLines = [BasketLine(product: Products.cap, quantity: .one)]

    static func items(_ lines: [BasketLine]) throws -> [BasketLineItem] {
        try lines.map { line in
            let image = Products.all.first { $0.id == line.productID }?.imagePath ?? "/images/unknown.svg"
            return BasketLineItem(
                productID: line.productID, title: line.title, imagePath: image, unitPrice: line.unitPrice,
                quantity: line.quantity.value, lineTotal: try line.total())
        }
    }

    static func breakdown(
        _ lines: [BasketLine], promotion: Promotion? = nil, tier: Tier = .free
    ) throws
        -> PriceBreakdown
    {
        try Pricing.price(lines, promotion: promotion, tier: tier, shipping: .standard)
    }

    static func page(
        _ lines: [BasketLine], promotion: Promotion? = nil, tier: Tier = .free, error: String? = nil,
        typed: String = ""
    ) throws -> BasketPage {
        let priced = try breakdown(lines, promotion: promotion, tier: tier)
        return BasketPage(
            lines: try items(lines), totals: BasketTotals(priced),
            promoCode: BasketPage.PromoCode(
                applied: promotion?.code.rawValue, notice: priced.promotionNotice, error: error, typed: typed))
    }

    static func options(_ lines: [BasketLine], promotion: Promotion? = nil) throws -> [PaymentQuote] {
        try FeePolicy.standard.quotes(total: breakdown(lines, promotion: promotion).total)
    }
}

enum Fixtures {
    /// 2025-03-12 14:05 UTC.
    static let placedAt = Date(timeIntervalSince1970: 1_741_788_300)
    static let idempotencyKey = "7f9c2ba4-e88f-4c3a-9b8e-4a1d2c3b4e5f"
    static let orderID = "ord_5K2M8Q4T7V1X3Z6B9D2F4H6J8L"

    /// The 50.00 basket with RUN10, paid by card: 45.00 + 0.36 fee.
    static func receipt() throws -> OrderReceipt {
        let priced = try Baskets.breakdown(Baskets.thresholdLines, promotion: Promotions.run10)
        let quote = try FeePolicy.standard.quote(for: .card, total: priced.total)
        return OrderReceipt(
            id: orderID, paymentStatus: .paid,
            lines: try Baskets.thresholdLines.map {
                OrderReceipt.Line(
                    title: $0.title, unitPrice: $0.unitPrice, quantity: $0.quantity.value, lineTotal: try $0.total())
            },
            subtotal: priced.subtotal, discount: priced.discount, shipping: priced.shipping, fee: quote.fee,
            total: quote.amountDue, method: .card, cardBrand: "visa", promotionCode: "RUN10", placedAt: placedAt)
    }

    /// The same receipt after two refunds: the damaged cap (its 21.90 less its 2.19 share of the
    /// discount) two days later, and one pair of socks (half of 17.90 less 1.79, rounded down) still
    /// on its way.
    static func partlyRefundedReceipt() throws -> OrderReceipt {
        var receipt = try receipt()
        receipt.paymentStatus = .partiallyRefunded
        receipt.refunded = eur(19_71)
        receipt.refunds = [
            OrderReceipt.Refund(
                state: .succeeded, kind: .lines, amount: eur(19_71),
                lines: [OrderReceipt.Refund.Line(title: "Running cap", quantity: 1, amount: eur(19_71))],
                shipping: eur(0), fee: eur(0), date: placedAt.addingTimeInterval(2 * 86_400 + 3_600)),
            OrderReceipt.Refund(
                state: .pending, kind: .lines, amount: eur(8_05),
                lines: [OrderReceipt.Refund.Line(title: "Running socks", quantity: 1, amount: eur(8_05))],
                shipping: eur(0), fee: eur(0), date: placedAt.addingTimeInterval(3 * 86_400)),
        ]
        return receipt
    }
}
