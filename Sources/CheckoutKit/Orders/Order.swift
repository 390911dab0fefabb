import Foundation

/// An order's identifier: opaque and not guessable (`ord_` and 26 base-32 characters from 128
/// random bits), so knowing one order's id tells nothing about another's.
public struct OrderID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The identifier in `text` if it has the form of one (`ord_` and 26 base-32 characters),
    /// else `nil`: text from a client that cannot name an order goes no further.
    public init?(parsing text: String) {
        guard OpaqueIdentifier.isWellFormed(text, prefix: "ord_") else { return nil }
        rawValue = text
    }

    /// A fresh identifier from `generator` (the system's secure generator in production).
    public static func random(using generator: inout some RandomNumberGenerator) -> OrderID {
        OrderID(rawValue: OpaqueIdentifier.make(prefix: "ord_", using: &generator))
    }

    /// A fresh identifier, time-ordered, from the system's cryptographic random source.
    public static func random() -> OrderID {
        OrderID(rawValue: OpaqueIdentifier.makeOrdered(prefix: "ord_"))
    }

    public var description: String { rawValue }
}

/// Where an order stands.
public enum OrderStatus: String, Hashable, Sendable, CaseIterable {
    case paid
    case refunded
}

/// One line of an order, with the price at the time of the order.
public struct OrderLine: Hashable, Sendable {
    public let productID: ProductID
    public let title: String
    public let unitPrice: Money
    public let quantity: Int
    public let lineTotal: Money

    public init(productID: ProductID, title: String, unitPrice: Money, quantity: Int, lineTotal: Money) {
        self.productID = productID
        self.title = title
        self.unitPrice = unitPrice
        self.quantity = quantity
        self.lineTotal = lineTotal
    }
}

/// A paid checkout: what was bought, at which prices, and what was charged (docs/BEHAVIOUR.md §7).
public struct Order: Hashable, Sendable, Identifiable {
    public let id: OrderID
    public var status: OrderStatus
    public let lines: [OrderLine]
    public let subtotal: Money
    public let discount: Money
    public let shipping: Money
    public let fee: Money
    /// What was charged: subtotal − discount + shipping + fee.
    public let total: Money
    public let paymentMethod: PaymentMethod.Kind
    /// The card brand the provider reported (`visa`), for card payments.
    public let cardBrand: String?
    public let promotionCode: PromotionCode?
    public let createdAt: Date

    public init(
        id: OrderID, status: OrderStatus, lines: [OrderLine], subtotal: Money, discount: Money, shipping: Money,
        fee: Money, total: Money, paymentMethod: PaymentMethod.Kind, cardBrand: String?,
        promotionCode: PromotionCode?, createdAt: Date
    ) {
        self.id = id
        self.status = status
        self.lines = lines
        self.subtotal = subtotal
        self.discount = discount
        self.shipping = shipping
        self.fee = fee
        self.total = total
        self.paymentMethod = paymentMethod
        self.cardBrand = cardBrand
        self.promotionCode = promotionCode
        self.createdAt = createdAt
    }

    /// The paid order for `quote`, with the prices as charged.
    public init(
        paying quote: CheckoutQuote, id: OrderID, cardBrand: String?, createdAt: Date
    ) throws(MoneyError) {
        var lines: [OrderLine] = []
        lines.reserveCapacity(quote.lines.count)
        for line in quote.lines {
            lines.append(
                OrderLine(
                    productID: line.productID, title: line.title, unitPrice: line.unitPrice,
                    quantity: line.quantity.value, lineTotal: try line.total()))
        }
        self.init(
            id: id, status: .paid, lines: lines, subtotal: quote.breakdown.subtotal,
            discount: quote.breakdown.discount, shipping: quote.breakdown.shipping, fee: quote.payment.fee,
            total: quote.payment.amountDue, paymentMethod: quote.method.kind, cardBrand: cardBrand,
            promotionCode: quote.breakdown.discount.isZero ? nil : quote.breakdown.promotionCode,
            createdAt: createdAt)
    }
}
