import CheckoutKit

/// The basket at `/basket`: its lines with quantity and remove controls, the totals, the promo
/// code form and the way to checkout; or, when empty, a way back to the catalog.
public struct BasketPage: Hashable, Sendable {
    /// The promo code part of the basket: the applied code, its notice, or the error of the last
    /// code tried.
    public struct PromoCode: Hashable, Sendable {
        /// The code the basket carries, shown with a **Remove** button.
        public var applied: String?
        /// "Add €50.00 more to use BIG20." while the subtotal is below the code's minimum.
        public var notice: PromotionNotice?
        /// Why the last code tried was refused, e.g. "That code isn't valid."
        public var error: String?
        /// What the shopper typed, put back in the field beside the error.
        public var typed: String

        public init(applied: String? = nil, notice: PromotionNotice? = nil, error: String? = nil, typed: String = "") {
            self.applied = applied
            self.notice = notice
            self.error = error
            self.typed = typed
        }
    }

    public var lines: [BasketLineItem]
    public var totals: BasketTotals
    public var promoCode: PromoCode

    public init(lines: [BasketLineItem], totals: BasketTotals, promoCode: PromoCode = PromoCode()) {
        self.lines = lines
        self.totals = totals
        self.promoCode = promoCode
    }

    public var isEmpty: Bool { lines.isEmpty }
}
