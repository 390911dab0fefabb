import CheckoutKit
import StoreViews
import Testing

/// docs/BEHAVIOUR.md §3–§5's worked cases, as the pages show them.
@Suite("Worked cases on the pages") struct WorkedCaseTests {
    @Test("10.20 + 21.90 + 2 × 8.95 with RUN10: subtotal €50.00, discount −€5.00, shipping free, total €45.00")
    func thresholdBasketWithRun10() throws {
        let page = try Baskets.page(Baskets.thresholdLines, promotion: Promotions.run10)
        let html = StorePages.basket(page, context: Shopper.anonymous.context()).renderString().withoutLineBreaks
        #expect(html.contains(row("Subtotal", "€50.00")))
        #expect(html.contains(row("Discount (RUN10)", "−€5.00")))
        #expect(html.contains(row("Shipping", "€0.00 (free)")))
        #expect(html.contains(row("Total", "€45.00", attributes: #" class="total" id="basket-total""#)))
        #expect(!html.contains("more for free shipping"))
        #expect(html.contains("Code <strong>RUN10</strong> applied"))
    }

    @Test("one €21.90 item: shipping €4.95, total €26.85, €28.10 more for free shipping")
    func singleCap() throws {
        let page = try Baskets.page(Baskets.capLines)
        let html = StorePages.basket(page, context: Shopper.anonymous.context()).renderString().withoutLineBreaks
        #expect(html.contains(row("Subtotal", "€21.90")))
        #expect(html.contains(row("Discount", "€0.00")))
        #expect(html.contains(row("Shipping", "€4.95")))
        #expect(html.contains(row("Total", "€26.85", attributes: #" class="total" id="basket-total""#)))
        #expect(html.contains(">€28.10 more for free shipping</p>"))
    }

    @Test("a card on €45.00: fee €0.36, and the button reads Pay €45.36")
    func cardFeeOnTheDiscountedBasket() throws {
        let checkout = StorePages.checkout(try PageGallery.checkout(), context: Shopper.anonymous.context())
            .renderString().withoutLineBreaks
        #expect(checkout.contains(#"<span id="method-card-fee" class="fee">Fee €0.36 · you pay €45.36</span>"#))
        #expect(checkout.contains(#"class="fee">Fee €0.25 · you pay €45.25</span>"#))
        #expect(checkout.contains(#"class="fee">No fee · you pay €45.00</span>"#))

        let review = StorePages.checkoutReview(try PageGallery.review(), context: Shopper.anonymous.context())
            .renderString().withoutLineBreaks
        #expect(review.contains(row("Payment fee (Card)", "€0.36")))
        #expect(review.contains(row("To pay", "€45.36", attributes: #" class="total" id="amount-due""#)))
        #expect(review.contains(#"<button type="submit" class="button button-primary">Pay €45.36</button>"#))
        #expect(review.contains(#"<input type="hidden" name="expected_total" value="45.00">"#))
        #expect(review.contains(#"<input type="hidden" name="card" value="tok_visa">"#))
    }

    @Test("BIG20 below its minimum shows the notice and no discount")
    func big20Notice() throws {
        let page = try Baskets.page(Baskets.thresholdLines, promotion: Promotions.big20)
        let html = StorePages.basket(page, context: Shopper.anonymous.context()).renderString().withoutLineBreaks
        #expect(html.contains("Add €50.00 more to use BIG20."))
        #expect(html.contains(row("Discount", "€0.00")))
    }

    @Test("a Pro member pays no shipping on one cap and sees why")
    func proShipping() throws {
        let page = try Baskets.page(Baskets.capLines, tier: .pro)
        let html = StorePages.basket(page, context: Shopper.customer.context()).renderString().withoutLineBreaks
        #expect(html.contains(row("Shipping", "€0.00 (free with Pro)")))
        #expect(html.contains(row("Total", "€21.90", attributes: #" class="total" id="basket-total""#)))
        #expect(html.contains("Free shipping with your Pro membership"))
    }

    @Test("stock states read Only N left and Sold out, and a sold-out product cannot be added")
    func stockStates() {
        #expect(StockState(units: 3) == .low(3))
        #expect(StockState(units: 3).label == "Only 3 left")
        #expect(StockState(units: 0).label == "Sold out")
        #expect(StockState(units: 120).label == nil)
        let html = StorePages.catalog(PageGallery.catalog(CatalogQuery()), context: Shopper.anonymous.context())
            .renderString().withoutLineBreaks
        #expect(html.contains(#"<p class="stock stock-low">Only 3 left</p>"#))
        #expect(html.contains(#"<p class="stock stock-out">Sold out</p>"#))
        #expect(html.contains(#"aria-describedby="product-14-title" disabled>Add to basket</button>"#))
    }

    /// A totals row as the pages write it, without the line breaks between its tags.
    private func row(_ label: String, _ amount: String, attributes: String = "") -> String {
        #"<tr\#(attributes)><th scope="row">\#(label)</th><td>\#(amount)</td></tr>"#
    }
}
