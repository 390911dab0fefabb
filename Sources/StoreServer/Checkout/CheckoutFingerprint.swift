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

    /// Sorted-key JSON: equal requests always give equal text.
    var text: String {
        guard let data = try? StoreJSON.makeEncoder().encode(self) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    init?(text: String) {
        guard let value = try? StoreJSON.makeDecoder().decode(CheckoutFingerprint.self, from: Data(text.utf8)) else {
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
