import CheckoutKit
import Foundation
import Testing

@testable import StoreAPI

/// The order a checkout answers is written without `JSONEncoder`; it must be the very bytes the
/// encoder writes, for every order — titles with any character, every currency, any instant.
@Suite("Order JSON written directly") struct OrderJSONTests {
    /// Characters a title may hold that an encoder treats specially, and some it must not.
    private static let awkward: [String] =
        (0..<0x20).map { String(UnicodeScalar(UInt8($0))) } + [
            "\"", "\\", "/", "\u{7F}", "\u{2028}", "\u{2029}", "é", "€", "漢", "😀", "👩‍👩‍👧", "</script>", " ", "'",
        ]

    private static func title(_ random: inout SplitMix64) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            if Bool.random(using: &random) {
                text += awkward.randomElement(using: &random) ?? ""
            } else {
                text += String(UnicodeScalar(UInt8.random(in: 0x20...0x7E, using: &random)))
            }
        }
        return text
    }

    private static func money(_ currency: Currency, _ random: inout SplitMix64) -> Money {
        Money(minorUnits: Int64.random(in: -5_000...99_999_999, using: &random), currency: currency)
    }

    private static func order(_ random: inout SplitMix64, createdAt: Date) -> OrderBody {
        let currency = Currency.known.randomElement(using: &random) ?? .eur
        let lines = (0..<Int.random(in: 0...4, using: &random)).map { _ in
            OrderLineBody(
                productID: Int64.random(in: 1...Int64.max, using: &random), title: title(&random),
                unitPrice: money(currency, &random), quantity: Int.random(in: 1...10, using: &random),
                lineTotal: money(currency, &random))
        }
        let method = PaymentMethodBody(
            type: ["card", "payment_link", "qr_code"].randomElement(using: &random) ?? "card",
            token: Bool.random(using: &random) ? title(&random) : nil,
            brand: Bool.random(using: &random) ? title(&random) : nil)
        return OrderBody(
            id: "ord_" + title(&random), status: ["paid", "refunded"].randomElement(using: &random) ?? "paid",
            lines: lines, subtotal: money(currency, &random), discount: money(currency, &random),
            shipping: money(currency, &random), fee: money(currency, &random), total: money(currency, &random),
            paymentMethod: method, promotion: Bool.random(using: &random) ? title(&random) : nil,
            createdAt: createdAt, paymentStatus: ["paid", "partially_refunded"].randomElement(using: &random) ?? "paid")
    }

    private static func expectSameBytes(_ order: OrderBody) throws {
        let direct = String(decoding: try order.encodedJSON(), as: UTF8.self)
        let encoded = String(decoding: try StoreJSON.encoder.encode(order), as: UTF8.self)
        #expect(direct == encoded)
    }

    @Test("random orders: the same bytes as the encoder")
    func randomOrders() throws {
        var random = SplitMix64(seed: 20_261_205)
        for _ in 0..<2_000 {
            // Whole milliseconds, as orders are stored: 1970 to 2200.
            let milliseconds = Int64.random(in: 0...7_258_118_400_000, using: &random)
            try Self.expectSameBytes(
                Self.order(&random, createdAt: Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1_000)))
        }
    }

    @Test("instants at the edges of days, months, leap years and the range")
    func edges() throws {
        var random = SplitMix64(seed: 7)
        let texts = [
            "1970-01-01T00:00:00.000Z", "1999-12-31T23:59:59.999Z", "2000-02-29T12:00:00.001Z",
            "2024-02-29T23:59:59.999Z", "2026-12-05T06:30:00.123Z", "2100-02-28T00:00:00.000Z",
            "2100-03-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z",
        ]
        for text in texts {
            let date = try #require(StoreJSON.date(text))
            #expect(StoreJSON.timestamp(date) == text)
            try Self.expectSameBytes(Self.order(&random, createdAt: date))
        }
        // Between milliseconds: to the nearest one, carried into the seconds, minutes, days.
        #expect(StoreJSON.timestamp(Date(timeIntervalSince1970: 1.000_4)) == "1970-01-01T00:00:01.000Z")
        #expect(StoreJSON.timestamp(Date(timeIntervalSince1970: 86_399.999_6)) == "1970-01-02T00:00:00.000Z")
        // Before 1970: the format style.
        let early = Date(timeIntervalSince1970: -86_400)
        #expect(StoreJSON.timestamp(early) == early.formatted(InstantText.style))
        try Self.expectSameBytes(Self.order(&random, createdAt: early))
    }

    @Test("a stored instant is written as its own millisecond and read back as it")
    func wholeMilliseconds() throws {
        var random = SplitMix64(seed: 3)
        for _ in 0..<5_000 {
            let milliseconds = Int64.random(in: 0...7_258_118_400_000, using: &random)
            let date = Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1_000)
            let text = StoreJSON.timestamp(date)
            let back = try #require(StoreJSON.date(text))
            #expect(Int64((back.timeIntervalSince1970 * 1_000).rounded()) == milliseconds, "\(text)")
            #expect(text.hasSuffix(String(format: ".%03dZ", Int(milliseconds % 1_000))), "\(text)")
        }
    }

    @Test("an order with refunds goes through the encoder")
    func refunds() throws {
        var random = SplitMix64(seed: 11)
        var order = Self.order(&random, createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        order.refunds = [
            RefundBody(
                id: "ref_1", status: "succeeded", kind: "partial", amount: Money(minorUnits: 100, currency: .eur),
                lines: [], shipping: Money(minorUnits: 0, currency: .eur), fee: Money(minorUnits: 0, currency: .eur),
                reason: "damaged", note: nil, requestedBy: nil, createdAt: "2027-01-15T08:00:00.000Z", settledAt: nil,
                failureReason: nil)
        ]
        try Self.expectSameBytes(order)
    }
}
