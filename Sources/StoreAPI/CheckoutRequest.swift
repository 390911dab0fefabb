import CheckoutKit

/// `POST /api/checkout` — how the shopper pays and the basket total they confirmed.
///
/// The method travels as plain fields and becomes a ``PaymentMethod`` only through
/// ``validatedPaymentMethod()``, so that an unknown method is a typed 422 (`unknown_payment_method`) rather
/// than a JSON decoding failure.
public struct CheckoutRequest: Codable, Hashable, Sendable {
    public var paymentMethod: PaymentMethodBody
    /// The basket `total` the shopper saw, before the payment fee.
    public var expectedTotal: Money

    private enum CodingKeys: String, CodingKey {
        case paymentMethod = "payment_method"
        case expectedTotal = "expected_total"
    }

    public init(paymentMethod: PaymentMethodBody, expectedTotal: Money) {
        self.paymentMethod = paymentMethod
        self.expectedTotal = expectedTotal
    }

    public init(method: PaymentMethod, expectedTotal: Money) {
        self.init(paymentMethod: PaymentMethodBody(method), expectedTotal: expectedTotal)
    }

    /// The validated payment method.
    ///
    /// - Throws: ``CheckoutError/unknownPaymentMethod``, ``CheckoutError/invalidCardToken``,
    ///   ``CheckoutError/cardNumberRejected`` (also for a token sent with a method that takes none).
    public func validatedPaymentMethod() throws(CheckoutError) -> PaymentMethod {
        if let token = paymentMethod.token, CardNumberDetector.containsCardNumber(token) {
            throw .cardNumberRejected
        }
        return try PaymentMethod(wireName: paymentMethod.type, token: paymentMethod.token)
    }
}

/// A payment method on the wire: `{"type": "card", "token": "tok_visa"}`, `{"type": "payment_link"}`,
/// `{"type": "qr_code"}`; in an order also the card `brand` the provider reported.
public struct PaymentMethodBody: Codable, Hashable, Sendable {
    public var type: String
    public var token: String?
    public var brand: String?

    public init(type: String, token: String? = nil, brand: String? = nil) {
        self.type = type
        self.token = token
        self.brand = brand
    }

    public init(_ method: PaymentMethod) {
        switch method {
        case .card(let token): self.init(type: PaymentMethod.Kind.card.rawValue, token: token.rawValue)
        case .paymentLink: self.init(type: PaymentMethod.Kind.paymentLink.rawValue)
        case .qrCode: self.init(type: PaymentMethod.Kind.qrCode.rawValue)
        }
    }
}
