import CheckoutKit
import Foundation
import StoreDatabase

/// The back office's promotion codes (docs/BEHAVIOUR.md §13.9): listed with their use counts and
/// status, added by ``CheckoutKit/PromotionRules`` (whatever face they came through), disabled for
/// good. Every change is written with its audit line. Promotions are read from the database each
/// time a basket is priced or paid for — nothing caches them — so a change applies to every basket
/// on every server at once: a basket holding a disabled code gets its notice and no discount, and a
/// checkout cannot count a use of it.
package struct PromotionManagement: Sendable {
    package let database: StoreDatabase
    /// The shop's currency: amounts off and minimum subtotals are in it.
    package let currency: Currency
    package let clock: StoreClock

    package init(database: StoreDatabase, currency: Currency, clock: StoreClock) {
        self.database = database
        self.currency = currency
        self.clock = clock
    }

    /// Every code, disabled and expired ones too, by code, with where each stands now.
    package func promotions() async throws -> [(promotion: Promotion, status: Promotion.Availability)] {
        let now = clock.now()
        return try await database.promotions.all().map { ($0, $0.availability(at: now)) }
    }

    /// Where `promotion` stands now: available, not started, expired, used up or disabled.
    package func status(of promotion: Promotion) -> Promotion.Availability {
        promotion.availability(at: clock.now())
    }

    /// Adds a promotion, unused.
    ///
    /// - Throws: ``CheckoutKit/PromotionDetailsError`` (every problem, by field),
    ///   `PromotionChangeError.exists` when the code is taken (by a disabled code too).
    package func create(_ draft: PromotionDraft, by staff: StaffRecord) async throws -> Promotion {
        let promotion = try PromotionRules.promotion(draft, currency: currency).get()
        return try await database.promotions.create(promotion, by: staff.actor, now: clock.now())
    }

    /// Disables `code` for good. Disabling it again changes nothing and writes no audit line.
    ///
    /// - Throws: `PromotionChangeError.notFound`.
    package func disable(_ code: PromotionCode, by staff: StaffRecord) async throws -> Promotion {
        try await database.promotions.disable(code, by: staff.actor, now: clock.now())
    }
}
