import CheckoutKit

/// Money on the wire: `{"amount": "10.20", "currency": "EUR"}`.
///
/// The amount is a decimal *string* with exactly the currency's minor digits when encoded. Decoding
/// is strict: a JSON number, more decimals than the currency has, an exponent, or an unknown
/// currency are decoding errors — never a silent rounding.
extension Money: Codable {
    private enum CodingKeys: String, CodingKey {
        case amount
        case currency
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let code = try container.decode(String.self, forKey: .currency)
        guard let currency = Currency(code: code) else {
            throw DecodingError.dataCorruptedError(
                forKey: .currency, in: container, debugDescription: "unknown currency (expected an ISO 4217 code)")
        }
        let text = try container.decode(String.self, forKey: .amount)
        do {
            try self.init(amount: text, currency: currency)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .amount, in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(amountText, forKey: .amount)
        try container.encode(currency.code, forKey: .currency)
    }
}
