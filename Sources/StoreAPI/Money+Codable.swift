import CheckoutKit

/// Money on the wire: `{"amount": "10.20", "currency": "EUR"}`.
///
/// The amount is a decimal *string* with exactly the currency's minor digits when encoded. Decoding
/// is strict: a JSON number, more decimals than the currency has, an exponent, an unknown currency
/// or a field other than the two are decoding errors — never a silent rounding.
extension Money: Codable {
    private enum CodingKeys: String, CodingKey {
        case amount
        case currency
    }

    /// Any key, to find the ones Money does not have.
    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        // Only `amount` and `currency`: a field more is a mistake (a typo, another format), never
        // silently ignored in an amount of money.
        let everyKey = try decoder.container(keyedBy: AnyKey.self)
        if let unknown = everyKey.allKeys.first(where: { CodingKeys(stringValue: $0.stringValue) == nil }) {
            throw DecodingError.dataCorruptedError(
                forKey: unknown, in: everyKey, debugDescription: "an amount of money has only amount and currency")
        }
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
