import CheckoutKit
import Foundation
import StoreAPI
import Testing

func eur(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .eur) }

func encode(_ value: some Encodable) throws -> String {
    String(decoding: try StoreJSON.makeEncoder().encode(value), as: UTF8.self)
}

func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try StoreJSON.makeDecoder().decode(type, from: Data(json.utf8))
}

@Suite struct MoneyWireTests {
    @Test(arguments: [
        (eur(10_20), #"{"amount":"10.20","currency":"EUR"}"#),
        (eur(5), #"{"amount":"0.05","currency":"EUR"}"#),
        (Money(minorUnits: 1500, currency: .jpy), #"{"amount":"1500","currency":"JPY"}"#),
        (Money(minorUnits: 1005, currency: .kwd), #"{"amount":"1.005","currency":"KWD"}"#),
        (Money(minorUnits: 20, currency: .bhd), #"{"amount":"0.020","currency":"BHD"}"#),
    ])
    func moneyEncodesAsADecimalStringWithTheCurrencysDigits(money: Money, json: String) throws {
        #expect(try encode(money) == json)
        #expect(try decode(Money.self, json) == money)
    }

    @Test(arguments: [
        #"{"amount":10.20,"currency":"EUR"}"#,  // a JSON number
        #"{"amount":"4.495","currency":"EUR"}"#,  // too many decimals
        #"{"amount":"1.5","currency":"JPY"}"#,  // JPY has none
        #"{"amount":"1.0005","currency":"KWD"}"#,
        #"{"amount":"10.20","currency":"XYZ"}"#,  // unknown currency
        #"{"amount":"10.20","currency":"eur"}"#,
        #"{"amount":"1e3","currency":"EUR"}"#,
        #"{"amount":" 10.20","currency":"EUR"}"#,
        #"{"amount":"10.20"}"#,
        #"{"currency":"EUR"}"#,
        #"{"amount":null,"currency":"EUR"}"#,
        #"{"amount":"10.20","currency":"EUR","minor":1020}"#,  // a field more
        #""10.20 EUR""#,
    ])
    func strictDecodingRefusesAnythingItWouldHaveToGuess(json: String) {
        #expect(throws: DecodingError.self) { try decode(Money.self, json) }
    }
}

@Suite struct ResourceWireTests {
    let rating = Rating(tenths: 39, count: 120)

    @Test func productShape() throws {
        let rating = try #require(self.rating)
        let product = Product(
            id: ProductID(1), title: "Water bottle", description: "Keeps cold for 24 h.", category: "hydration",
            price: eur(10_20), imagePath: "/images/water-bottle.svg", rating: rating, stock: 42)
        let json = try encode(ProductBody(product))
        #expect(
            json
                == #"{"category":"hydration","description":"Keeps cold for 24 h.","id":1,"image":"/images/water-bottle.svg","price":{"amount":"10.20","currency":"EUR"},"rating":{"count":120,"rate":3.9},"stock":42,"title":"Water bottle"}"#
        )
        #expect(try decode(ProductBody.self, json) == ProductBody(product))
    }

    @Test func everyRatingIsWrittenWithOneDecimalAtMost() throws {
        for tenths in 0...50 {
            let rating = try #require(Rating(tenths: tenths, count: 1))
            let written = String(decoding: try JSONEncoder().encode(RatingBody(rating).rate), as: UTF8.self)
            let expected = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
            #expect(written == expected)
            #expect(RatingBody(rating).rate == Decimal(string: expected))
        }
    }

    @Test func basketShapeFromTheWorkedCase() throws {
        let cap = BasketLine(productID: ProductID(2), title: "Cap", unitPrice: eur(21_90), quantity: .one)
        let run10 = Promotion(
            code: try #require(PromotionCode("RUN10")), kind: .percentOff(try #require(Rate(percent: 10))),
            minimumSubtotal: eur(0))
        let price = try Pricing.price([cap], promotion: run10, tier: .free, shipping: .standard)
        let body = try BasketBody(
            lines: [cap], price: price, promotion: run10, quotes: try FeePolicy.standard.quotes(total: price.total),
            locale: Locale(identifier: "en_US"))
        let object = try #require(
            try JSONSerialization.jsonObject(with: StoreJSON.makeEncoder().encode(body)) as? [String: Any])
        #expect(
            Set(object.keys)
                == [
                    "items", "subtotal", "discount", "shipping", "total", "amount_to_free_shipping", "promotion",
                    "tier", "payment_options",
                ])
        #expect(body.subtotal == eur(21_90))
        #expect(body.discount == eur(2_19))
        #expect(body.total == eur(24_66))
        #expect(body.amountToFreeShipping == eur(28_10))
        #expect(
            body.items == [
                BasketItemBody(productID: 2, title: "Cap", unitPrice: eur(21_90), quantity: 1, lineTotal: eur(21_90))
            ])
        #expect(body.paymentOptions.map(\.type) == ["card", "payment_link", "qr_code"])
        #expect(body.paymentOptions.map(\.amountDue) == [eur(24_86), eur(24_91), eur(24_66)])
        #expect(body.promotion?.code == "RUN10")
        #expect(body.promotion?.percentOff == 10)
        #expect(try decode(BasketBody.self, encode(body)) == body)
    }

    @Test func absentOptionalsAreLeftOutNotNull() throws {
        let body = BasketBody(
            items: [], subtotal: eur(0), discount: eur(0), shipping: eur(0), total: eur(0), amountToFreeShipping: nil,
            promotion: nil, promoNotice: nil, tier: .pro, paymentOptions: [])
        let json = try encode(body)
        #expect(!json.contains("amount_to_free_shipping"))
        #expect(!json.contains("null"))
        #expect(json.contains(#""tier":"pro""#))
    }

    @Test func checkoutRequestShapesAndValidation() throws {
        let card = try decode(
            CheckoutRequest.self,
            #"{"payment_method":{"type":"card","token":"tok_visa"},"expected_total":{"amount":"45.00","currency":"EUR"}}"#
        )
        #expect(try card.validatedPaymentMethod() == .card(CardToken("tok_visa")))
        #expect(card.expectedTotal == eur(45_00))

        let link = try decode(
            CheckoutRequest.self,
            #"{"payment_method":{"type":"payment_link"},"expected_total":{"amount":"1.00","currency":"EUR"}}"#)
        #expect(try link.validatedPaymentMethod() == .paymentLink)

        let unknown = try decode(
            CheckoutRequest.self,
            #"{"payment_method":{"type":"bitcoin"},"expected_total":{"amount":"1.00","currency":"EUR"}}"#)
        #expect(throws: CheckoutError.unknownPaymentMethod) { try unknown.validatedPaymentMethod() }

        let smuggled = try decode(
            CheckoutRequest.self,
            #"{"payment_method":{"type":"qr_code","token":"4242 4242 4242 4242"},"expected_total":{"amount":"1.00","currency":"EUR"}}"#
        )
        #expect(throws: CheckoutError.cardNumberRejected) { try smuggled.validatedPaymentMethod() }

        #expect(throws: DecodingError.self) {
            try decode(
                CheckoutRequest.self,
                #"{"payment_method":{"type":"card","token":"tok_visa"},"expected_total":45.00}"#)
        }
        #expect(throws: DecodingError.self) {
            try decode(CheckoutRequest.self, #"{"expected_total":{"amount":"45.00","currency":"EUR"}}"#)
        }
        #expect(try decode(CheckoutRequest.self, encode(card)) == card)
    }

    @Test func orderRoundTripsWithAnISO8601Timestamp() throws {
        let created = Date(timeIntervalSince1970: 1_796_213_310.125)
        let order = Order(
            id: OrderID(rawValue: "ord_abc"), status: .paid,
            lines: [
                OrderLine(
                    productID: ProductID(2), title: "Cap", unitPrice: eur(21_90), quantity: 1, lineTotal: eur(21_90))
            ],
            subtotal: eur(21_90), discount: eur(0), shipping: eur(4_95), fee: eur(21), total: eur(27_06),
            paymentMethod: .card, cardBrand: "visa", promotionCode: nil, createdAt: created)
        let json = try encode(OrderBody(paid: order))
        #expect(json.contains(#""created_at":"2026-12-02T12:08:30.125Z""#))
        #expect(json.contains(#""payment_method":{"brand":"visa","type":"card"}"#))
        #expect(json.contains(#""payment_status":"paid""#) && json.contains(#""refunds":[]"#))
        #expect(!json.contains("promotion"))
        let decoded = try decode(OrderBody.self, json)
        #expect(decoded == OrderBody(paid: order))
        #expect(throws: DecodingError.self) {
            try decode(OrderBody.self, json.replacingOccurrences(of: "2026-12-02T12:08:30.125Z", with: "yesterday"))
        }
    }

    @Test("an order kept from before refunds existed (a replayed checkout) reads as paid, with no refunds")
    func orderWithoutRefundFields() throws {
        let order = Order(
            id: OrderID(rawValue: "ord_abc"), status: .paid, lines: [], subtotal: eur(21_90), discount: eur(0),
            shipping: eur(4_95), fee: eur(21), total: eur(27_06), paymentMethod: .card, cardBrand: nil,
            promotionCode: nil, createdAt: Date(timeIntervalSince1970: 1_796_213_310))
        let now = try encode(OrderBody(paid: order))
        let stored = now.replacingOccurrences(of: #","payment_status":"paid""#, with: "")
            .replacingOccurrences(of: #","refunds":[]"#, with: "")
        #expect(stored != now && !stored.contains("payment_status") && !stored.contains("refunds"))
        let decoded = try decode(OrderBody.self, stored)
        #expect(decoded.paymentStatus == "paid")
        #expect(decoded.refunds.isEmpty)
        #expect(decoded == OrderBody(paid: order))
    }

    @Test("an order's refunds as its shopper sees them: no note, nobody's email, no provider's reason")
    func orderWithRefunds() throws {
        let created = Date(timeIntervalSince1970: 1_796_213_310)
        let order = Order(
            id: OrderID(rawValue: "ord_abc"), status: .paid,
            lines: [
                OrderLine(
                    productID: ProductID(2), title: "Cap", unitPrice: eur(21_90), quantity: 2, lineTotal: eur(43_80))
            ],
            subtotal: eur(43_80), discount: eur(0), shipping: eur(0), fee: eur(35), total: eur(44_15),
            paymentMethod: .card, cardBrand: "visa", promotionCode: nil, createdAt: created)
        func refund(_ state: RefundState) throws -> Refund {
            Refund(
                id: .random(), orderID: order.id, kind: .lines, state: state, amount: eur(21_90),
                lines: [
                    RefundLine(
                        position: 0, productID: ProductID(2), title: "Cap", quantity: 1, amount: eur(21_90),
                        restock: true)
                ], shipping: eur(0), fee: eur(0), reason: try #require(RefundReason(kind: .damaged, note: "torn")),
                requestedBy: "owner@onlinestore.test", createdAt: created.addingTimeInterval(60),
                settledAt: state == .pending ? nil : created.addingTimeInterval(61),
                failureReason: state == .failed ? "refused" : nil)
        }
        let succeeded = try refund(.succeeded)
        let placed = ShopperOrder(
            order: order, refunded: eur(21_90), refunds: [succeeded, try refund(.failed), try refund(.pending)])
        let body = OrderBody(placed)
        #expect(body.paymentStatus == "partially_refunded")
        #expect(body.refunds.map(\.status) == ["succeeded", "pending"], "a failed refund gave nothing back")
        let json = try encode(body)
        #expect(!json.contains("torn") && !json.contains("owner@") && !json.contains("refused"))
        #expect(json.contains(#""settled_at":"2026-12-02T12:09:31.000Z""#))
        #expect(try decode(OrderBody.self, json) == body)
    }

    @Test func profileShape() throws {
        let expires = Date(timeIntervalSince1970: 1_800_000_000)
        let profile = ProfileBody(
            firstName: "Pat", lastName: "Pro", email: "pro@onlinestore.test", tier: .pro,
            subscription: SubscriptionBody(SubscriptionFacts(expiresAt: expires, willAutoRenew: true)))
        let json = try encode(profile)
        #expect(json.contains(#""first_name":"Pat""#))
        #expect(json.contains(#""will_auto_renew":true"#))
        #expect(try decode(ProfileBody.self, json) == profile)
        let free = ProfileBody(
            firstName: "Fran", lastName: "Free", email: "free@onlinestore.test", tier: .free,
            subscription: SubscriptionBody(.none))
        #expect(try !encode(free).contains("expires_at"))
        #expect(try decode(ProfileBody.self, encode(free)) == free)
        #expect(throws: DecodingError.self) {
            try decode(
                ProfileBody.self,
                #"{"first_name":"A","last_name":"B","email":"e","tier":"gold","subscription":{"will_auto_renew":false}}"#
            )
        }
    }

    @Test func errorBodyShape() throws {
        #expect(
            try encode(ErrorBody(type: "not_found", message: "No such product."))
                == #"{"error":{"message":"No such product.","type":"not_found"}}"#)
        #expect(
            try encode(ErrorBody(type: "declined", message: "Your bank declined the payment.", reason: "card_declined"))
                == #"{"error":{"message":"Your bank declined the payment.","reason":"card_declined","type":"declined"}}"#
        )
        let mismatch = ErrorBody(type: "idempotency_mismatch", message: "…", field: "expected_total")
        #expect(try decode(ErrorBody.self, encode(mismatch)) == mismatch)
    }
}
