/// A shopper's basket: lines in one currency and at most one promotion code.
///
/// The basket enforces its own rules — quantities 1…10, one line per product, one currency,
/// one code — so any `Basket` value is a valid one. Prices are worked out by ``Pricing``.
public struct Basket: Hashable, Sendable {
    public let currency: Currency
    public private(set) var lines: [BasketLine]
    /// The promotion code the shopper applied, already normalized.
    public var promotionCode: PromotionCode?

    public init(currency: Currency, lines: [BasketLine] = [], promotionCode: PromotionCode? = nil) throws(BasketError) {
        self.currency = currency
        self.lines = []
        self.promotionCode = promotionCode
        for line in lines {
            try add(line)
        }
    }

    public var isEmpty: Bool { lines.isEmpty }

    /// The line for `productID`, if the basket has one.
    public func line(for productID: ProductID) -> BasketLine? {
        lines.first { $0.productID == productID }
    }

    /// Adds a line; a product already in the basket has its quantity raised instead.
    ///
    /// - Throws: ``BasketError/quantityOutOfRange(requested:)`` when the line would exceed 10 units,
    ///   ``BasketError/currencyMismatch`` when the price is not in the basket's currency. The basket
    ///   is unchanged when it throws.
    public mutating func add(_ line: BasketLine) throws(BasketError) {
        guard line.unitPrice.currency == currency else {
            throw .currencyMismatch(basket: currency, line: line.unitPrice.currency)
        }
        if let index = lines.firstIndex(where: { $0.productID == line.productID }) {
            let requested = lines[index].quantity.value + line.quantity.value
            guard let quantity = Quantity(requested) else { throw .quantityOutOfRange(requested: requested) }
            lines[index].quantity = quantity
        } else {
            lines.append(line)
        }
    }

    /// Sets the quantity of `product`'s line, adding the line when it is absent.
    public mutating func setQuantity(_ quantity: Quantity, of product: Product) throws(BasketError) {
        guard product.price.currency == currency else {
            throw .currencyMismatch(basket: currency, line: product.price.currency)
        }
        if let index = lines.firstIndex(where: { $0.productID == product.id }) {
            lines[index].quantity = quantity
        } else {
            lines.append(BasketLine(product: product, quantity: quantity))
        }
    }

    /// Removes `productID`'s line. Removing a line that is not there changes nothing.
    public mutating func remove(_ productID: ProductID) {
        lines.removeAll { $0.productID == productID }
    }

    /// Empties the basket (after a paid checkout): no lines, no code.
    public mutating func empty() {
        lines.removeAll()
        promotionCode = nil
    }
}

/// Why a change to a basket was refused.
public enum BasketError: Error, Hashable, Sendable {
    /// A line would hold a quantity outside 1…10.
    case quantityOutOfRange(requested: Int)
    /// A price is in another currency than the basket's.
    case currencyMismatch(basket: Currency, line: Currency)
}
