import CheckoutKit
import Foundation
import Testing

@testable import StoreAPI

/// The checkout body read without `JSONDecoder`: whatever the plain reader accepts, `JSONDecoder`
/// must read as the very same request; anything else it leaves to `JSONDecoder`.
@Suite("Checkout body read plainly") struct PlainJSONTests {
    private static func decoded(_ text: String) -> CheckoutRequest? {
        try? StoreJSON.decoder.decode(CheckoutRequest.self, from: Data(text.utf8))
    }

    private static func plain(_ text: String) -> CheckoutRequest? {
        CheckoutRequest(plainJSON: Array(text.utf8))
    }

    @Test(arguments: [
        #"{"payment_method":{"type":"card","token":"tok_visa"},"expected_total":{"amount":"12.34","currency":"EUR"}}"#,
        #"{"expected_total":{"currency":"EUR","amount":"0.01"},"payment_method":{"token":"tok_visa","type":"card"}}"#,
        " \n\t{ \"payment_method\" : { \"type\" : \"qr_code\" } ,\r\n \"expected_total\" : { \"amount\" : \"1500\", \"currency\" : \"JPY\" } } \n",
        #"{"payment_method":{"type":"payment_link"},"expected_total":{"amount":"999999.99","currency":"USD"}}"#,
        #"{"payment_method":{"type":"card","token":"tok_chargeDeclined"},"expected_total":{"amount":"3.000","currency":"KWD"}}"#,
        // Read as sent: the method's validation comes later, as for a decoded body.
        #"{"payment_method":{"type":"cheque","token":"4242 4242 4242 4242"},"expected_total":{"amount":"1.00","currency":"EUR"}}"#,
        #"{"payment_method":{"type":"card","token":"tök_ünïcode ✓"},"expected_total":{"amount":"1.00","currency":"EUR"}}"#,
    ])
    func thePlainSpellingReadsAsTheDecoderReadsIt(_ body: String) throws {
        let plain = try #require(Self.plain(body))
        #expect(plain == Self.decoded(body))
    }

    @Test(arguments: [
        "", "{}", "[]", "null", #"{"payment_method":{"type":"card"}}"#,
        // Escapes, numbers, null, true: JSONDecoder reads them.
        #"{"payment_method":{"type":"ca\u0072d"},"expected_total":{"amount":"1.00","currency":"EUR"}}"#,
        #"{"payment_method":{"type":"card","token":null},"expected_total":{"amount":"1.00","currency":"EUR"}}"#,
        #"{"payment_method":{"type":"card"},"expected_total":{"amount":1.00,"currency":"EUR"}}"#,
        // A field more, anywhere; a field twice.
        #"{"payment_method":{"type":"card"},"expected_total":{"amount":"1.00","currency":"EUR"},"note":"x"}"#,
        #"{"payment_method":{"type":"card","brand":"visa"},"expected_total":{"amount":"1.00","currency":"EUR"}}"#,
        #"{"payment_method":{"type":"card"},"expected_total":{"amount":"1.00","currency":"EUR","tax":"0"}}"#,
        #"{"payment_method":{"type":"card","type":"qr_code"},"expected_total":{"amount":"1.00","currency":"EUR"}}"#,
        #"{"payment_method":{"type":"card"},"payment_method":{"type":"card"},"expected_total":{"amount":"1.00","currency":"EUR"}}"#,
        // Values the decoder refuses, with its own words.
        #"{"payment_method":{"type":"card"},"expected_total":{"amount":"1.001","currency":"EUR"}}"#,
        #"{"payment_method":{"type":"card"},"expected_total":{"amount":"1.00","currency":"XXX"}}"#,
        #"{"payment_method":{"type":"card"},"expected_total":{"amount":"1e2","currency":"EUR"}}"#,
        #"{"payment_method":{"type":"card"},"expected_total":{"currency":"EUR"}}"#,
        #"{"payment_method":{},"expected_total":{"amount":"1.00","currency":"EUR"}}"#,
        #"{"payment_method":"card","expected_total":{"amount":"1.00","currency":"EUR"}}"#,
        // Not one object, or not JSON.
        #"{"payment_method":{"type":"card"},"expected_total":{"amount":"1.00","currency":"EUR"}} {}"#,
        #"{"payment_method":{"type":"card"},"expected_total":{"amount":"1.00","currency":"EUR"},}"#,
        #"{"payment_method":{"type":"card"} "expected_total":{"amount":"1.00","currency":"EUR"}}"#,
        #"{"payment_method":{"type":"card"},"expected_total":{"amount":"1.00","currency":"EUR"}"#,
        "\u{FEFF}{\"payment_method\":{\"type\":\"card\"},\"expected_total\":{\"amount\":\"1.00\",\"currency\":\"EUR\"}}",
        "{\"payment_method\":{\"type\":\"card\ttab\"},\"expected_total\":{\"amount\":\"1.00\",\"currency\":\"EUR\"}}",
    ])
    func anyOtherSpellingIsLeftToTheDecoder(_ body: String) {
        #expect(Self.plain(body) == nil)
    }

    @Test func invalidUTF8IsLeftToTheDecoder() {
        var bytes = Array(#"{"payment_method":{"type":"card","token":"tok_"#.utf8)
        bytes += [0xC3, 0x28]
        bytes += Array(#""},"expected_total":{"amount":"1.00","currency":"EUR"}}"#.utf8)
        #expect(CheckoutRequest(plainJSON: bytes) == nil)
    }

    @Test func objectsNestedDeeperThanTheLimitAreLeftToTheDecoder() {
        let deep = String(repeating: #"{"a":"#, count: 4) + #""x""# + String(repeating: "}", count: 4)
        #expect(PlainJSON.object(Array(deep.utf8)) == nil)
        let allowed = String(repeating: #"{"a":"#, count: 3) + #""x""# + String(repeating: "}", count: 3)
        #expect(PlainJSON.object(Array(allowed.utf8)) != nil)
    }

    /// Random edits of plain bodies (a byte changed, inserted or removed, many times over): every
    /// body the plain reader accepts, `JSONDecoder` reads as the same request.
    @Test func whateverThePlainReaderAcceptsTheDecoderReadsTheSame() {
        let seeds = [
            #"{"payment_method":{"type":"card","token":"tok_visa"},"expected_total":{"amount":"12.34","currency":"EUR"}}"#,
            #"{ "expected_total" : { "currency" : "JPY", "amount" : "1500" }, "payment_method" : { "type" : "qr_code" } }"#,
        ].map { Array($0.utf8) }
        let alphabet =
            Array(#"{}[]":, \"#.utf8) + Array("0123456789.-eEtruefalsnl_abcdEURJPY\t\n\r\u{7F}".utf8)
            + [0, 0xC3, 0xA9, 0xFF]
        var random = SplitMix64(seed: 0x5EED)
        var accepted = 0
        for round in 0..<20_000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[at] = alphabet.randomElement(using: &random) ?? 0
                case 1: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: at)
                default: if bytes.count > 1 { bytes.remove(at: at) }
                }
            }
            guard let plain = CheckoutRequest(plainJSON: bytes) else { continue }
            accepted += 1
            let decoded = try? StoreJSON.decoder.decode(CheckoutRequest.self, from: Data(bytes))
            #expect(decoded == plain, "\(String(decoding: bytes, as: UTF8.self))")
        }
        // Enough edits keep the body plain (a letter in a value, a space) for the comparison to mean something.
        #expect(accepted > 1_000)
    }
}
