import CheckoutKit
import Foundation
import Testing

@Suite struct CardNumberDetectorTests {
    /// Test card numbers as the networks publish them.
    static let cardNumbers = [
        "4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222", "378282246310005",
        "6011111111111117", "3056930009020004", "36227206271667", "4000002500003155", "4111111111111111",
        "6200000000000005", "4242424242424242428",
    ]

    @Test(arguments: cardNumbers)
    func findsCardNumbersWrittenTogether(number: String) {
        #expect(CardNumberDetector.containsCardNumber(number))
    }

    @Test(arguments: cardNumbers)
    func findsCardNumbersInGroupsAndInsideText(number: String) {
        let grouped = stride(from: 0, to: number.count, by: 4).map { start -> String in
            let begin = number.index(number.startIndex, offsetBy: start)
            let end = number.index(begin, offsetBy: min(4, number.count - start))
            return String(number[begin..<end])
        }
        #expect(CardNumberDetector.containsCardNumber(grouped.joined(separator: " ")))
        #expect(CardNumberDetector.containsCardNumber(grouped.joined(separator: "-")))
        #expect(CardNumberDetector.containsCardNumber("my card is \(number), thanks"))
        #expect(CardNumberDetector.containsCardNumber("tok_\(number)"))
        #expect(CardNumberDetector.containsCardNumber("\(grouped.joined(separator: " ")) 123"))
        #expect(CardNumberDetector.containsCardNumber("12 \(grouped.joined(separator: "-"))"))
    }

    @Test(arguments: [
        "", "tok_visa", "RUN10", "4242424242424241",  // fails Luhn
        "424242424242",  // 12 digits
        "42424242424242424242",  // 20 digits written together
        "1700000000", "2026-12-02", "+49 30 1234567", "order 12345", "4242 4242 4242 4241",
        "4242    4242    4242    4242",  // four characters between the groups: a gap, not a separator
        "4242.4242.4242.4241", "x4242_4242_4242_4242", "4242/4242/4242/4242y",
    ])
    func leavesOtherTextAlone(text: String) {
        #expect(!CardNumberDetector.containsCardNumber(text))
    }

    /// The groups, whatever separates them: any one to three characters that are not letters or
    /// digits, a character outside ASCII counting once.
    @Test(arguments: [
        " ", "-", ".", "/", "_", "+", ":", ",", "\t", "\n", "\u{A0}", "\u{2013}", "\u{3000}", "  ", " - ", ", ",
        " / ", "\u{2009}\u{2013}\u{2009}",
    ])
    func findsGroupsWhateverSeparatesThem(separator: String) {
        for number in Self.cardNumbers {
            let grouped = stride(from: 0, to: number.count, by: 4).map { start -> String in
                let begin = number.index(number.startIndex, offsetBy: start)
                return String(number[begin..<number.index(begin, offsetBy: min(4, number.count - start))])
            }
            let written = grouped.joined(separator: separator)
            #expect(CardNumberDetector.containsCardNumber(written), "\(Array(written.utf8))")
            #expect(CardNumberDetector.containsCardNumber("code=\(written)&x=1"))
        }
    }

    /// Card numbers as they are printed: fours, Amex's 4-6-5 and Diners' 4-6-4.
    @Test func findsPrintedLayouts() {
        #expect(CardNumberDetector.containsCardNumber("3782 822463 10005"))
        #expect(CardNumberDetector.containsCardNumber("3622-720627-1667"))
        #expect(CardNumberDetector.containsCardNumber("4222 2222 2222 2"))
        #expect(CardNumberDetector.containsCardNumber("4242 4242 4242 4242 428"))
    }

    /// What docs/BEHAVIOUR.md §5 says must never be refused: UUID keys, amounts, order ids, timestamps, dates.
    @Test(arguments: [
        "1a2b3c4d-5e6f-4a1b-8123-100000000003",  // once refused: "8123-100000000003" is Luhn-valid
        "12345678-4242-4242-4242-424242424242",  // all-digit UUID groups
        "45.36", "1000000000.00", "ord_0h3k5m7n9p1r3t5v7x9z1b3d5f", "pay_4c2x9m1k7p3r8t6v5w0z2b4d6f",
        "1796213310", "1796213310000", "1796213310000000", "1796213310000000000",  // s, ms, µs, ns
        "2026-12-02", "2026-12-02T18:16:09.123Z", "20261202181609",
    ])
    func neverRefusesOrdinaryData(text: String) {
        #expect(!CardNumberDetector.containsCardNumber(text))
    }

    /// A million random version-4 UUIDs, as the app models mint idempotency keys (upper- and
    /// lower-case): none is refused.
    @Test func randomUUIDKeysAreNeverRefused() {
        var generator = SplitMix64(seed: 0x5EED_0001)
        let lower = Array("0123456789abcdef".utf8)
        let upper = Array("0123456789ABCDEF".utf8)
        var refused: [String] = []
        var text = [UInt8](repeating: UInt8(ascii: "-"), count: 36)
        for index in 0..<1_000_000 {
            let alphabet = index % 2 == 0 ? lower : upper
            var bits = generator.next()
            var more = generator.next()
            for position in [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20, 21, 22] {
                text[position] = alphabet[Int(bits & 15)]
                bits >>= 4
            }
            for position in 24..<36 {
                text[position] = alphabet[Int(more & 15)]
                more >>= 4
            }
            text[14] = UInt8(ascii: "4")  // version 4
            text[19] = alphabet[8 + Int(more & 3)]  // variant 10xx
            let key = String(decoding: text, as: UTF8.self)
            if CardNumberDetector.containsCardNumber(key) { refused.append(key) }
        }
        #expect(refused.isEmpty, "\(refused.prefix(5))")
    }

    @Test func luhn() {
        #expect(CardNumberDetector.passesLuhn([7, 9, 9, 2, 7, 3, 9, 8, 7, 1, 3]))
        #expect(!CardNumberDetector.passesLuhn([7, 9, 9, 2, 7, 3, 9, 8, 7, 1, 4]))
    }
}

@Suite struct PaymentMethodTests {
    @Test(arguments: ["tok_visa", "tok_mastercard", "tok_chargeDeclined", "tok_insufficientFunds", "tok_timeout"])
    func providerTokensAreCards(token: String) throws {
        #expect(try PaymentMethod(wireName: "card", token: token) == .card(try CardToken(token)))
    }

    @Test func theSetIsClosed() throws {
        #expect(try PaymentMethod(wireName: "payment_link", token: nil) == .paymentLink)
        #expect(try PaymentMethod(wireName: "qr_code", token: nil) == .qrCode)
        for name in ["", "cash", "free", "CARD", "bitcoin", "card "] {
            #expect(throws: CheckoutError.unknownPaymentMethod) { try PaymentMethod(wireName: name, token: nil) }
        }
    }

    @Test func aCardNeedsAWellFormedToken() {
        #expect(throws: CheckoutError.invalidCardToken) { try PaymentMethod(wireName: "card", token: nil) }
        // A token is a card's: with a method that takes none it is refused, not ignored.
        for name in ["payment_link", "qr_code"] {
            #expect(throws: CheckoutError.invalidCardToken) { try PaymentMethod(wireName: name, token: "tok_visa") }
        }
        for token in ["", "tok_", "visa", "tok_visa!", "tok_ visa", String(repeating: "a", count: 80)] {
            #expect(throws: CheckoutError.invalidCardToken) { try CardToken(token) }
        }
    }

    @Test func aCardNumberIsNeverAToken() {
        for token in ["4242424242424242", "4242 4242 4242 4242", "tok_4242424242424242"] {
            #expect(throws: CheckoutError.cardNumberRejected) { try PaymentMethod(wireName: "card", token: token) }
        }
    }

    @Test func everyFailureHasAMessageForPeople() {
        #expect(CheckoutError.invalidAmount.message == "Enter an amount above zero.")
        #expect(
            CheckoutError.unavailable.message
                == "We couldn't confirm the payment. Retrying is safe — you won't be charged twice.")
        #expect(CheckoutError.declined(.insufficientFunds).message.hasPrefix("Your bank declined the payment."))
        #expect(CheckoutError.declined(.insufficientFunds).message.contains("insufficient funds"))
        #expect(CheckoutError.declined(.cardDeclined).code == "declined")
        #expect(CheckoutError.priceChanged(expected: eur(1), actual: eur(26_85)).message.contains("€26.85"))
        #expect(CheckoutError.outOfStock([ProductID(1)]).message.contains("not been charged"))
    }
}

@Suite struct CheckoutQuoteTests {
    let lines = [Catalog.waterBottle, Catalog.cap, Catalog.socks(2)]

    func quote(_ lines: [BasketLine], promotion: Promotion? = nil, method: PaymentMethod) throws -> CheckoutQuote {
        try CheckoutQuote(
            lines: lines, promotion: promotion, tier: .free, shipping: .standard, fees: .standard, method: method)
    }

    @Test func theAmountDueIsTheTotalPlusTheMethodsFee() throws {
        let card = try quote(lines, promotion: Promotions.run10, method: .card(CardToken("tok_visa")))
        #expect(card.breakdown.total == eur(45_00))
        #expect(card.payment.fee == eur(36))
        #expect(card.amountDue == eur(45_36))
        #expect(throws: Never.self) { try card.confirm(expectedTotal: eur(45_00)) }
    }

    @Test func aDifferentConfirmedTotalIsPriceChanged() throws {
        let link = try quote(lines, method: .paymentLink)
        #expect(throws: CheckoutError.priceChanged(expected: eur(49_99), actual: eur(50_00))) {
            try link.confirm(expectedTotal: eur(49_99))
        }
        // The fee is not part of the confirmed total.
        #expect(throws: CheckoutError.priceChanged(expected: eur(50_25), actual: eur(50_00))) {
            try link.confirm(expectedTotal: eur(50_25))
        }
        #expect(
            throws: CheckoutError.priceChanged(expected: Money(minorUnits: 50_00, currency: .usd), actual: eur(50_00))
        ) {
            try link.confirm(expectedTotal: Money(minorUnits: 50_00, currency: .usd))
        }
    }

    @Test func nonPositiveAmountsAreRejected() throws {
        let qr = try quote(lines, method: .qrCode)
        #expect(throws: CheckoutError.invalidAmount) { try qr.confirm(expectedTotal: eur(0)) }
        #expect(throws: CheckoutError.invalidAmount) { try qr.confirm(expectedTotal: eur(-50_00)) }
    }

    @Test func anEmptyBasketCannotBePaid() throws {
        #expect(throws: CheckoutError.emptyBasket) { try quote([], method: .qrCode).confirm(expectedTotal: eur(1)) }
    }

    @Test func theOrderKeepsThePricesAsCharged() throws {
        let card = try quote(lines, promotion: Promotions.run10, method: .card(CardToken("tok_visa")))
        var generator = SplitMix64(seed: 1)
        let order = try Order(
            paying: card, id: OrderID.random(using: &generator), cardBrand: "visa", createdAt: referenceDate)
        #expect(order.status == .paid)
        #expect(order.lines.map(\.lineTotal) == [eur(10_20), eur(21_90), eur(17_90)])
        #expect(order.total == eur(45_36))
        #expect(order.promotionCode == code("RUN10"))
        #expect(order.paymentMethod == .card)
        #expect(order.id.rawValue.hasPrefix("ord_"))
        #expect(order.id.rawValue.count == 30)
    }

    @Test func orderIDsAreNotGuessable() {
        var generator = SystemRandomNumberGenerator()
        let ids = Set((0..<1_000).map { _ in OrderID.random(using: &generator) })
        #expect(ids.count == 1_000)
        #expect(ids.allSatisfy { OrderID(parsing: $0.rawValue) == $0 })
    }

    @Test func onlyTheFormOfAnOrderIDIsParsed() {
        #expect(OrderID(parsing: "ord_0h3k5m7n9p1r3t5v7x9z1b3d5f") != nil)
        for text in [
            "", "ord_", "ord_0h3k5m7n9p1r3t5v7x9z1b3d5", "ord_0h3k5m7n9p1r3t5v7x9z1b3d5ff",
            "ORD_0h3k5m7n9p1r3t5v7x9z1b3d5f",
            "ord_0h3k5m7n9p1r3t5v7x9z1b3d5\u{0}", "ord_0h3k5m7n9p1r3t5v7x9z1b3d5i", "pay_0h3k5m7n9p1r3t5v7x9z1b3d5f",
            "1",
        ] {
            #expect(OrderID(parsing: text) == nil, "\(text)")
        }
    }

    @Test func everySandboxCardIsAWellFormedToken() throws {
        #expect(SandboxCard.allCases.count == 9)
        for card in SandboxCard.allCases {
            #expect(try CardToken(card.rawValue) == card.token)
            #expect(!card.name.isEmpty)
        }
    }

    @Test func aProductIDIsAPositiveWholeNumber() {
        #expect(ProductID(parsing: "2") == ProductID(2))
        #expect(ProductID(parsing: "9223372036854775807") == ProductID(Int64.max))
        for text in ["", "0", "-1", "+2", " 2", "2 ", "2.0", "1e3", "0x10", "9223372036854775808", "٢", "２"] {
            #expect(ProductID(parsing: text) == nil, "\(text)")
        }
    }
}

@Suite struct IdempotencyKeyTests {
    @Test func keysAreOneTo255VisibleASCIICharacters() {
        #expect(IdempotencyKey(rawValue: "a") != nil)
        #expect(IdempotencyKey(rawValue: String(repeating: "k", count: 255)) != nil)
        #expect(IdempotencyKey(rawValue: String(repeating: "k", count: 256)) == nil)
        #expect(IdempotencyKey(rawValue: "") == nil)
        #expect(IdempotencyKey(rawValue: "has space") == nil)
        #expect(IdempotencyKey(rawValue: "naïve") == nil)
        #expect(IdempotencyKey(rawValue: "line\nbreak") == nil)
    }

    @Test func randomKeysAre128BitHex() {
        let key = IdempotencyKey.random()
        #expect(key.rawValue.count == 32)
        #expect(key.rawValue.allSatisfy { $0.isHexDigit })
        #expect(IdempotencyKey.random() != key)
    }

    @Test func aRandomKeyNeverLooksLikeACardNumber() {
        // The first draw is a key the store would refuse: 400904433402517 is a Visa-shaped number
        // that passes the Luhn check. It is drawn again.
        #expect(CardNumberDetector.containsCardNumber("d400904433402517f5f5aa552ed48b53"))
        var generator = ReplayedNumbers([0xd400_9044_3340_2517, 0xf5f5_aa55_2ed4_8b53, 0xabc, 0xdef])
        let key = IdempotencyKey.random(using: &generator)
        #expect(key.rawValue == "0000000000000abc0000000000000def")
        #expect(generator.remaining == 0)
    }
}

/// Hands out the given numbers in order, for a draw whose outcome the test chooses.
private struct ReplayedNumbers: RandomNumberGenerator {
    private var numbers: [UInt64]

    init(_ numbers: [UInt64]) { self.numbers = numbers }

    var remaining: Int { numbers.count }

    mutating func next() -> UInt64 {
        numbers.isEmpty ? 0 : numbers.removeFirst()
    }
}
