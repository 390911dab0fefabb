import CheckoutKit
import Foundation
import StoreCrypto
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import Testing

@testable import StoreServer

/// The card-number guard judges decoded values: what must never be refused (docs/BEHAVIOUR.md §5) passes, and
/// every test card number, however it is written, in any field, is refused.
@Suite("Card-number guard") struct CardNumberGuardTests {
    static let testCards = [
        "4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222", "378282246310005",
        "6011111111111117", "3056930009020004", "36227206271667", "6200000000000005",
    ]

    /// The number as printed: fours, or 4-6-5 / 4-6-4 for 15- and 14-digit cards.
    static func printed(_ card: String, separator: String) -> String {
        CardWritings.grouped(card, by: separator, printedLayout: true)
    }

    static func body(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("the bodies the store's own clients send are never refused")
    func clientBodiesPass() {
        var generator = SplitMix64(seed: 42)
        var refused: [String] = []
        for _ in 0..<2_000 {
            let cents = Int.random(in: 1...99_999_999, using: &generator)
            let amount = "\(cents / 100).\(String(format: "%02d", cents % 100))"
            let token = ["tok_visa", "tok_mastercard", "tok_timeout", "tok_chargeDeclined"].randomElement(
                using: &generator)
            let bodies = [
                #"{"payment_method":{"type":"card","token":"\#(token ?? "tok_visa")"},"expected_total":{"amount":"\#(amount)","currency":"EUR"}}"#,
                #"{"payment_method":{"type":"payment_link"},"expected_total":{"amount":"\#(amount)","currency":"EUR"}}"#,
                #"{"quantity":\#(Int.random(in: 1...10, using: &generator))}"#,
                #"{"code":"RUN10"}"#,
                #"{"userId":\#(Int.random(in: 1...1_000_000, using: &generator)),"date":"2026-12-02T18:16:09.123Z","products":[{"productId":\#(Int.random(in: 1...20, using: &generator)),"quantity":2}]}"#,
                #"[{"productId":\#(Int.random(in: 1...20, using: &generator)),"quantity":1},{"productId":3,"quantity":2}]"#,
                #"{"note":"\#(UUID().uuidString)","at":\#(Int64.random(in: 1_700_000_000_000...1_999_999_999_999, using: &generator))}"#,
            ]
            for body in bodies where CardNumberScan.scan(body: Self.body(body)) != .clean { refused.append(body) }
        }
        #expect(refused.isEmpty, "\(refused.prefix(3))")
    }

    @Test("the storefront's forms, with a session's CSRF token and a minted key, are never refused")
    func storefrontFormsPass() {
        // Each is drawn afresh; about 1 in 1,300 hex tokens held a card-shaped run of digits, so
        // 20,000 sessions would have met some.
        var refused: [String] = []
        for _ in 0..<20_000 {
            let csrf = WebSessions.csrfToken(for: SecretToken.generate())
            let key = IdempotencyKey.random().rawValue
            let bodies = [
                "csrf=\(csrf)&product_id=3&quantity=2&return_to=%2F",
                "csrf=\(csrf)&method=card&card=tok_visa&idempotency_key=\(key)&expected_total=45.00",
            ]
            for body in bodies where CardNumberScan.scan(body: Self.body(body)) != .clean { refused.append(body) }
        }
        #expect(refused.isEmpty, "\(refused.prefix(3))")
    }

    @Test("every test card number, together or printed, as text or as a number, in any field, JSON or form, is refused")
    func cardsAreRefusedEverywhere() {
        var missed: [String] = []
        for card in Self.testCards {
            let writings = [card, Self.printed(card, separator: " "), Self.printed(card, separator: "-")]
            var bodies: [String] = []
            for written in writings {
                bodies += [
                    #"{"payment_method":{"type":"card","token":"\#(written)"}}"#,
                    #"{"payment_method":{"type":"card","token":"tok_\#(written)"}}"#,
                    #"{"code":"\#(written)"}"#,
                    #"{"note":"my card is \#(written), thanks"}"#,
                    #"{"\#(written)":1}"#,
                    #"["\#(written)"]"#,
                    #""\#(written)""#,
                ]
            }
            // Escaped, and as numbers: whole, with a fraction of zeros, with an exponent.
            let escaped = card.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined()
            let first = card.prefix(1)
            let rest = card.dropFirst()
            bodies += [
                #"{"code":"\#(escaped)"}"#,
                #"{"userId":\#(card)}"#,
                #"{"userId":\#(card).0}"#,
                #"{"userId":\#(first).\#(rest)e\#(rest.count)}"#,
                #"{"products":[{"productId":\#(card),"quantity":1}]}"#,
            ]
            // As a form sends it: `+` for spaces, any separator, every byte percent-encoded.
            let percentEncoded = CardWritings.percentEncoded
            for separator in [" ", "-", ".", "_", "/", "+", "\u{A0}"] {
                let written = Self.printed(card, separator: separator)
                bodies += [
                    "csrf=abc&code=" + written.replacingOccurrences(of: " ", with: "+"),
                    "csrf=abc&code=" + percentEncoded(written),
                    "csrf=abc&idempotency_key=" + percentEncoded(written) + "&expected_total=45.00",
                    percentEncoded("note") + "=" + percentEncoded("my card: " + written),
                ]
            }
            bodies.append("csrf=abc&code=" + percentEncoded(card))
            for body in bodies where CardNumberScan.scan(body: Self.body(body)) != .cardNumber { missed.append(body) }
        }
        #expect(missed.isEmpty, "\(missed.prefix(5))")
    }

    @Test("a body is judged as every kind a handler could read it as")
    func everyReading() {
        func verdict(_ text: String) -> CardNumberScan.Verdict { CardNumberScan.scan(body: Self.body(text)) }
        // JSON at the start, a form's escapes after it: a web form's handler reads the form.
        #expect(verdict(#"{"a":1}&code=4242%204242%204242%204242"#) == .cardNumber)
        // A number a handler reads as an integer through a Double.
        #expect(verdict(#"{"userId":4.2424242424242419999e15}"#) == .cardNumber)
        #expect(verdict(#"{"userId":4242424242424242e0}"#) == .cardNumber)
        // Values it cannot decode are not skipped.
        #expect(verdict(#"{"userId":1,"junk":1e999999999}"#) == .unreadableJSON)
        #expect(verdict(#"[1e999999999]"#) == .unreadableJSON)
        // Ordinary bodies pass, numbers past `Decimal`'s range but within a `Double`'s included.
        #expect(verdict(#"{"quantity":2e0}"#) == .clean)
        #expect(verdict(#"{"quantity":2,"extra":[2.5557801252327155e+149,-1.7946293949478244e+206,1e-200]}"#) == .clean)
        #expect(verdict(#"{"code":"10% OFF"}"#) == .clean)
        #expect(verdict("code=RUN10&csrf=abcdef") == .clean)
        #expect(verdict("expected_total=45.00&idempotency_key=1a2b3c4d-5e6f-4a1b-8123-100000000003") == .clean)
    }

    @Test("a float that decodes to a card number is refused, not echoed", arguments: [Backend.sqlite])
    func floatsAreJudgedByTheirValue(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let reply = try await store.send(
                "POST", "/carts", json: #"{"userId":4.242424242424242e15,"products":[{"productId":1,"quantity":1}]}"#)
            #expect(reply.status == 422)
            #expect(reply.errorType == "card_number_rejected")
            #expect(!reply.text.contains("4242"))
            // The UUID key once refused as a card number pays.
            let token = try await store.workedCaseShopper()
            let paid = try await store.checkout(
                token: token, key: "1a2b3c4d-5e6f-4a1b-8123-100000000003", method: visa, total: "45.00")
            #expect(paid.status == 201)
        }
    }
}
