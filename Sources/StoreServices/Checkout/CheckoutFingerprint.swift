import CheckoutKit
import Foundation

/// The canonical form of a checkout request — its method and the total the shopper confirmed —
/// kept with its attempt to recognise a retry of the same request and, for a different one, to
/// name the field that differs.
///
/// Stored as sorted-key JSON in the API's own spelling
/// (`{"expected_total":{"amount":"45.00","currency":"EUR"},"payment_method":"card","token":"tok_visa"}`),
/// the form attempts have always been kept in: equal requests always give equal text.
package struct CheckoutFingerprint: Hashable, Sendable {
    package var paymentMethod: String
    package var token: String?
    package var expectedTotal: Money

    package init(method: PaymentMethod, expectedTotal: Money) {
        paymentMethod = method.kind.rawValue
        if case .card(let card) = method { token = card.rawValue }
        self.expectedTotal = expectedTotal
    }

    /// Written by hand (this runs for every checkout): the method name is from a closed set, the
    /// amount and currency are validated, and a card token is letters, digits and underscores
    /// (``CheckoutKit/CardToken``), none of which JSON escapes.
    package var text: String {
        let token = self.token.map { #","token":"\#($0)""# } ?? ""
        return
            #"{"expected_total":{"amount":"\#(expectedTotal.amountText)","currency":"\#(expectedTotal.currency.code)"},"#
            + #""payment_method":"\#(paymentMethod)"\#(token)}"#
    }

    /// The fingerprint stored as `text`, or `nil` when it cannot be read.
    package init?(text: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let method = object["payment_method"] as? String,
            let total = object["expected_total"] as? [String: Any], let amount = total["amount"] as? String,
            let currency = total["currency"] as? String,
            let expectedTotal = try? Money(amount: amount, currencyCode: currency)
        else { return nil }
        paymentMethod = method
        token = object["token"] as? String
        self.expectedTotal = expectedTotal
    }

    /// The request field that differs from `other`, in the API's own spelling.
    package func differingField(from other: CheckoutFingerprint) -> String {
        if paymentMethod != other.paymentMethod { return "payment_method.type" }
        if token != other.token { return "payment_method.token" }
        return "expected_total"
    }
}
