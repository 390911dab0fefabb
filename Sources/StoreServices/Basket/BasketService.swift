import CheckoutKit
import Foundation
import StoreDatabase

/// A shopper's basket as the server prices it: lines at current prices, the promotion if it can
/// still be used, and the shopper's tier.
package struct PricedBasket: Sendable {
    package let stored: StoredBasket
    package let lines: [BasketLine]
    package let promotion: Promotion?
    /// The stored code when it can no longer be used (expired, used up, removed).
    package let unusableCode: PromotionCode?
    package let tier: Tier
    package let price: PriceBreakdown

    /// What the basket says of a code it can no longer use ("The code RUN10 can no longer be
    /// used."), or `nil`.
    package var unusableCodeNotice: String? {
        unusableCode.map { "The code \($0.rawValue) can no longer be used." }
    }
}

/// Reads and changes baskets, always pricing through ``CheckoutKit/Pricing`` — the one copy of
/// the pricing rules.
package struct BasketService: Sendable {
    package let database: StoreDatabase
    package let configuration: StoreConfiguration
    package let clock: StoreClock

    package init(database: StoreDatabase, configuration: StoreConfiguration, clock: StoreClock) {
        self.database = database
        self.configuration = configuration
        self.clock = clock
    }

    /// The basket priced now. The tier is Pro or free from the customer's cached subscription
    /// facts (anonymous shoppers are free): a local read, never a network call. `read`: what
    /// pricing needs, when the caller has just read it (with the session); otherwise it is read now.
    package func priced(_ shopper: Shopper, from read: PricingInputs? = nil) async throws -> PricedBasket {
        let inputs: PricingInputs
        if let read {
            inputs = read
        } else {
            inputs = try await database.baskets.pricingInputs(for: shopper.id, customer: shopper.customerID)
        }
        let stored = inputs.basket
        var promotion: Promotion?
        var unusable: PromotionCode?
        if let code = stored.promotionCode {
            if let found = inputs.promotion, found.availability(at: clock.now()) == .available {
                promotion = found
            } else {
                unusable = code
            }
        }
        let tier = inputs.subscription?.tier(at: clock.now()) ?? .free
        let lines = stored.basketLines
        let price = try Pricing.price(lines, promotion: promotion, tier: tier, shipping: configuration.shipping)
        return PricedBasket(
            stored: stored, lines: lines, promotion: promotion, unusableCode: unusable, tier: tier, price: price)
    }

    /// Sets a line's quantity (1…10), adding the line when absent.
    ///
    /// - Throws: ``BasketError/unknownProduct``, or ``BasketError/insufficientStock(available:)``.
    package func setQuantity(_ quantity: Quantity, of productID: ProductID, for shopper: Shopper) async throws {
        guard let product = try await database.catalog.product(productID) else { throw BasketError.unknownProduct }
        guard product.stock >= quantity.value else { throw BasketError.insufficientStock(available: product.stock) }
        guard try await database.baskets.setQuantity(quantity, of: productID, for: shopper.id, now: clock.now())
        else { throw BasketError.unknownProduct }
    }

    /// Sets several lines at once, all or none.
    ///
    /// - Throws: `BasketLineError` naming the first line that cannot be set; nothing changed then.
    package func setLines(_ lines: [(ProductID, Quantity)], for shopper: Shopper) async throws {
        try await database.baskets.setQuantities(lines, for: shopper.id, now: clock.now())
    }

    package func removeLine(_ productID: ProductID, for shopper: Shopper) async throws {
        try await database.baskets.removeLine(productID, for: shopper.id, now: clock.now())
    }

    /// Applies a code typed by the shopper (trimmed, upper-cased); one code per basket, so it
    /// replaces any earlier one.
    ///
    /// - Throws: ``BasketError/invalidPromotion`` for a malformed, unknown, expired or used-up
    ///   code; the basket is unchanged then.
    package func applyPromotion(_ typed: String, for shopper: Shopper) async throws {
        guard let code = PromotionCode(typed), let promotion = try await database.promotions.promotion(code),
            promotion.availability(at: clock.now()) == .available
        else { throw BasketError.invalidPromotion }
        try await database.baskets.setPromotion(promotion.code, for: shopper.id, now: clock.now())
    }

    package func removePromotion(for shopper: Shopper) async throws {
        try await database.baskets.setPromotion(nil, for: shopper.id, now: clock.now())
    }
}
