import CheckoutKit
import Foundation

/// The store's own catalog, promotions and demo customers, written for OnlineStore.
///
/// Products 1–3 are the ones of docs/BEHAVIOUR.md §3's worked cases (water bottle €10.20, cap €21.90, running
/// socks €8.95); product 11 has a stock under 30.
public enum SeedCatalog {
    public struct Item: Sendable {
        public let id: Int64
        public let title: String
        public let description: String
        public let category: String
        public let priceCents: Int64
        public let imageName: String
        public let ratingTenths: Int
        public let ratingCount: Int
        public let stock: Int

        public var imagePath: String { "/images/\(imageName).svg" }
        /// The merchant's code for it: its image's name in capitals (`WATER-BOTTLE`).
        public var sku: String { imageName.uppercased() }
    }

    public struct DemoCustomer: Sendable {
        public let email: String
        public let password: String
        public let firstName: String
        public let lastName: String
        /// Pro: an expiration this long after seeding, renewing; free: never subscribed.
        public let subscriptionLength: TimeInterval?
    }

    public static let categories = ["hydration", "apparel", "accessories", "nutrition"]

    public static let items: [Item] = [
        Item(
            id: 1, title: "Trail water bottle 750 ml",
            description: "A light, leak-proof bottle with a one-hand valve and a grip that stays put on wet runs.",
            category: "hydration", priceCents: 10_20, imageName: "water-bottle", ratingTenths: 45, ratingCount: 212,
            stock: 120),
        Item(
            id: 2, title: "Running cap",
            description: "Breathable mesh cap with a soft brim and a sweat band that dries in minutes.",
            category: "apparel", priceCents: 21_90, imageName: "running-cap", ratingTenths: 42, ratingCount: 96,
            stock: 80),
        Item(
            id: 3, title: "Running socks",
            description: "Cushioned, seamless socks with arch support, made for long distances without blisters.",
            category: "apparel", priceCents: 8_95, imageName: "running-socks", ratingTenths: 47, ratingCount: 431,
            stock: 200),
        Item(
            id: 4, title: "Insulated flask 500 ml",
            description: "Double-walled steel: cold for 24 hours, hot for 12, and no sweat on the outside.",
            category: "hydration", priceCents: 24_50, imageName: "insulated-flask", ratingTenths: 44, ratingCount: 88,
            stock: 60),
        Item(
            id: 5, title: "Soft flask 500 ml",
            description: "Squeezable flask that shrinks as you drink and fits any vest pocket.",
            category: "hydration", priceCents: 18_00, imageName: "soft-flask", ratingTenths: 41, ratingCount: 54,
            stock: 75),
        Item(
            id: 6, title: "Hydration vest 5 l",
            description: "A close-fitting vest with two front flask pockets and room for a jacket and snacks.",
            category: "hydration", priceCents: 89_00, imageName: "hydration-vest", ratingTenths: 46, ratingCount: 73,
            stock: 35),
        Item(
            id: 7, title: "Electrolyte tablets (20)",
            description: "Effervescent tablets with sodium, potassium and magnesium; lightly lemon flavoured.",
            category: "nutrition", priceCents: 7_49, imageName: "electrolyte-tablets", ratingTenths: 43,
            ratingCount: 160, stock: 150),
        Item(
            id: 8, title: "Lightweight running jacket",
            description: "Wind- and showerproof shell that packs into its own chest pocket.",
            category: "apparel", priceCents: 79_90, imageName: "running-jacket", ratingTenths: 45, ratingCount: 67,
            stock: 40),
        Item(
            id: 9, title: "Running tights",
            description: "Compressive tights with a zipped back pocket and reflective details.",
            category: "apparel", priceCents: 49_95, imageName: "running-tights", ratingTenths: 44, ratingCount: 121,
            stock: 55),
        Item(
            id: 10, title: "Technical t-shirt",
            description: "Quick-drying, odour-resistant t-shirt with flat seams.",
            category: "apparel", priceCents: 29_90, imageName: "technical-tshirt", ratingTenths: 43, ratingCount: 188,
            stock: 90),
        Item(
            id: 11, title: "LED head torch",
            description: "400 lumens, a red rear light and a rechargeable battery for early and late runs.",
            category: "accessories", priceCents: 34_99, imageName: "head-torch", ratingTenths: 48, ratingCount: 39,
            stock: 12),
        Item(
            id: 12, title: "Reflective vest",
            description: "A featherweight vest that makes you visible from 200 m in headlights.",
            category: "accessories", priceCents: 14_95, imageName: "reflective-vest", ratingTenths: 40, ratingCount: 58,
            stock: 70),
        Item(
            id: 13, title: "Phone armband",
            description: "Adjustable armband that holds phones up to 6.7 inches, touch screen included.",
            category: "accessories", priceCents: 16_50, imageName: "phone-armband", ratingTenths: 38, ratingCount: 102,
            stock: 65),
        Item(
            id: 14, title: "Sport sunglasses",
            description: "Wrap-around lenses with UV400 protection that do not bounce or fog.",
            category: "accessories", priceCents: 39_00, imageName: "sport-sunglasses", ratingTenths: 42,
            ratingCount: 47,
            stock: 45),
        Item(
            id: 15, title: "Energy gels (6 pack)",
            description: "Fast carbohydrates in easy-to-open sachets; two with caffeine.",
            category: "nutrition", priceCents: 9_90, imageName: "energy-gels", ratingTenths: 39, ratingCount: 140,
            stock: 140),
        Item(
            id: 16, title: "Protein bars (12)",
            description: "Chewy oat bars with 20 g of protein each, no palm oil.",
            category: "nutrition", priceCents: 19_80, imageName: "protein-bars", ratingTenths: 41, ratingCount: 93,
            stock: 100),
        Item(
            id: 17, title: "Recovery drink mix 500 g",
            description: "Carbohydrate and protein powder to mix with milk or water after a hard session.",
            category: "nutrition", priceCents: 24_90, imageName: "recovery-mix", ratingTenths: 40, ratingCount: 61,
            stock: 60),
        Item(
            id: 18, title: "Trail mix 250 g",
            description: "Nuts, raisins and dark chocolate chunks in a resealable bag.",
            category: "nutrition", priceCents: 4_60, imageName: "trail-mix", ratingTenths: 46, ratingCount: 210,
            stock: 180),
        Item(
            id: 19, title: "Collapsible cup",
            description: "A silicone cup for race aid stations that folds flat to the size of a coin.",
            category: "hydration", priceCents: 6_95, imageName: "collapsible-cup", ratingTenths: 37, ratingCount: 44,
            stock: 110),
        Item(
            id: 20, title: "Running belt",
            description: "A bounce-free belt for keys, gels and a phone, with a loop for race numbers.",
            category: "accessories", priceCents: 17_90, imageName: "running-belt", ratingTenths: 44, ratingCount: 76,
            stock: 85),
    ]

    /// RUN10 (10 %, no minimum), GIFT25 (€25 off, no minimum), BIG20 (20 % from €100).
    public static func promotions(currency: Currency) -> [Promotion] {
        guard let run10 = PromotionCode("RUN10"), let gift25 = PromotionCode("GIFT25"),
            let big20 = PromotionCode("BIG20"), let ten = Rate(percent: 10), let twenty = Rate(percent: 20)
        else { return [] }
        let scale = currency.minorUnitsPerMajorUnit
        return [
            Promotion(code: run10, kind: .percentOff(ten), minimumSubtotal: .zero(currency)),
            Promotion(
                code: gift25, kind: .amountOff(Money(minorUnits: 25 * scale, currency: currency)),
                minimumSubtotal: .zero(currency)),
            Promotion(
                code: big20, kind: .percentOff(twenty),
                minimumSubtotal: Money(minorUnits: 100 * scale, currency: currency)),
        ]
    }

    /// The two demo customers documented in the README.
    public static let demoCustomers = [
        DemoCustomer(
            email: "pro@onlinestore.test", password: "pro-demo-password", firstName: "Robin", lastName: "Runner",
            subscriptionLength: 365 * 24 * 3_600),
        DemoCustomer(
            email: "free@onlinestore.test", password: "free-demo-password", firstName: "Sam", lastName: "Stride",
            subscriptionLength: nil),
    ]

    /// The demo owner documented in the README, beside the demo customers: the back office of the
    /// demo store. A real shop (`store serve --no-demo-data`) starts without staff.
    public static let demoStaff = [
        DemoStaff(email: "owner@onlinestore.test", password: "owner-demo-password", role: .owner)
    ]

    public struct DemoStaff: Sendable {
        public let email: String
        public let password: String
        public let role: StaffRole
    }
}
