/// Why a change to a basket was refused; nothing changed.
package enum BasketError: Error, Hashable, Sendable {
    /// There is no such product.
    case unknownProduct
    /// The product has fewer units in stock than asked for.
    case insufficientStock(available: Int)
    /// The code is malformed, unknown, expired or used up.
    case invalidPromotion
}
