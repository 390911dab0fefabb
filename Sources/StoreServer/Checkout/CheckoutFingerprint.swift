import CheckoutKit
import Foundation
import StoreAPI

/// The canonical form of a checkout request, kept with its attempt to recognise a retry of the
/// same request and, for a different one, to name the field that differs.
struct CheckoutFingerprint: Codable, Hashable, Sendable {
    var paymentMethod: String
    var token: String?
    var expectedTotal: Money

    private enum CodingKeys: String, CodingKey {
        case paymentMethod = "payment_method"
        case token
        case expectedTotal = "expected_total"
    }

    init(_ request: CheckoutRequest) {
        paymentMethod = request.paymentMethod.type
        token = request.paymentMethod.token
        expectedTotal = request.expectedTotal
    }

    /// Sorted-key JSON: equal requests always give equal text. Written by hand (this runs for every
    /// checkout): the method name is from a closed set and the amount and currency are validated;
    /// a token is written raw only when it is letters, digits and underscores, as card tokens are.
    var text: String {
        let token =
            self.token.map { token in
                let plain = token.utf8.allSatisfy { byte in
                    switch byte {
                    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                        true
                    default:
                        false
                    }
                }
                let literal =
                    plain
                    ? "\"\(token)\""
                    : (try? StoreJSON.encoder.encode(token)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
                return #","token":"# + literal
            } ?? ""
        return
            #"{"expected_total":{"amount":"\#(expectedTotal.amountText)","currency":"\#(expectedTotal.currency.code)"},"#
            + #""payment_method":"\#(paymentMethod)"\#(token)}"#
    }

    init?(text: String) {
        guard let value = try? StoreJSON.decoder.decode(CheckoutFingerprint.self, from: Data(text.utf8)) else {
            return nil
        }
        self = value
    }

    /// The request field that differs from `other`, in the API's own spelling.
    func differingField(from other: CheckoutFingerprint) -> String {
        if paymentMethod != other.paymentMethod { return "payment_method.type" }
        if token != other.token { return "payment_method.token" }
        return "expected_total"
    }
}
