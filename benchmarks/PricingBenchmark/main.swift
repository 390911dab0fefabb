import CheckoutKit

// Prices random baskets (1–10 lines, every one with a promotion) on one thread for a fixed time
// and reports baskets priced per second. Run in release mode: `make bench`.

let seconds = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 3
var generator = SplitMix64(seed: 20_261_202)

func makePromotions() -> [Promotion] {
    guard let run10 = PromotionCode("RUN10"), let gift25 = PromotionCode("GIFT25"), let big20 = PromotionCode("BIG20"),
        let ten = Rate(percent: 10), let twenty = Rate(percent: 20)
    else { fatalError("the benchmark's promotions are malformed") }
    return [
        Promotion(code: run10, kind: .percentOff(ten), minimumSubtotal: .zero(.eur)),
        Promotion(
            code: gift25, kind: .amountOff(Money(minorUnits: 25_00, currency: .eur)), minimumSubtotal: .zero(.eur)),
        Promotion(code: big20, kind: .percentOff(twenty), minimumSubtotal: Money(minorUnits: 100_00, currency: .eur)),
    ]
}

let promotions = makePromotions()
let baskets: [(lines: [BasketLine], promotion: Promotion, tier: Tier)] = (0..<4_096).map { _ in
    let lines = (0..<Int.random(in: 1...10, using: &generator)).map { index in
        BasketLine(
            productID: ProductID(Int64(index)), title: "Product \(index)",
            unitPrice: Money(minorUnits: Int64.random(in: 1_00...150_00, using: &generator), currency: .eur),
            quantity: Quantity(Int.random(in: 1...10, using: &generator)) ?? .one)
    }
    let promotion = promotions[Int.random(in: 0..<promotions.count, using: &generator)]
    return (lines, promotion, Int.random(in: 0..<5, using: &generator) == 0 ? .pro : .free)
}

let clock = ContinuousClock()
let deadline = clock.now.advanced(by: .seconds(seconds))
var priced = 0
var checksum: Int64 = 0
let start = clock.now
outer: while true {
    for basket in baskets {
        do {
            let price = try Pricing.price(
                basket.lines, promotion: basket.promotion, tier: basket.tier, shipping: .standard)
            checksum &+= price.total.minorUnits
        } catch {
            fatalError("pricing failed: \(error)")
        }
    }
    priced += baskets.count
    if clock.now >= deadline { break outer }
}
let elapsed = clock.now - start
let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
let perSecond = Int64(priced) * 1_000_000_000 / max(1, nanoseconds)
print(
    "pricing: \(perSecond) baskets/s on one thread (\(priced) baskets in \(elapsed); 1–10 lines, with a promotion;"
        + " checksum \(checksum))")
