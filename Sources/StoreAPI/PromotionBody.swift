import CheckoutKit

/// The promotion applied to a basket.
public struct PromotionBody: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable {
        case percentOff = "percent_off"
        case amountOff = "amount_off"
    }

    public var code: String
    public var kind: Kind
    /// For `percent_off`: the whole percentage.
    public var percentOff: Int?
    /// For `amount_off`: the amount.
    public var amountOff: Money?
    public var minimumSubtotal: Money

    private enum CodingKeys: String, CodingKey {
        case code
        case kind
        case percentOff = "percent_off"
        case amountOff = "amount_off"
        case minimumSubtotal = "minimum_subtotal"
    }

    public init(code: String, kind: Kind, percentOff: Int?, amountOff: Money?, minimumSubtotal: Money) {
        self.code = code
        self.kind = kind
        self.percentOff = percentOff
        self.amountOff = amountOff
        self.minimumSubtotal = minimumSubtotal
    }

    public init(_ promotion: Promotion) {
        switch promotion.kind {
        case .percentOff(let rate):
            self.init(
                code: promotion.code.rawValue, kind: .percentOff, percentOff: rate.basisPoints / 100, amountOff: nil,
                minimumSubtotal: promotion.minimumSubtotal)
        case .amountOff(let amount):
            self.init(
                code: promotion.code.rawValue, kind: .amountOff, percentOff: nil, amountOff: amount,
                minimumSubtotal: promotion.minimumSubtotal)
        }
    }
}

/// `PUT /api/basket/promotion` — the code as the shopper typed it (it is trimmed and upper-cased).
public struct ApplyPromotionRequest: Codable, Hashable, Sendable {
    public var code: String

    public init(code: String) {
        self.code = code
    }
}

/// `PUT /api/basket/items/{product_id}` — the line's new quantity (1…10).
public struct SetQuantityRequest: Codable, Hashable, Sendable {
    public var quantity: Int

    public init(quantity: Int) {
        self.quantity = quantity
    }
}
