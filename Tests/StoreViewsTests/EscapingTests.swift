import CheckoutKit
import StoreViews
import Testing

/// User-controlled text never reaches a page unescaped (docs/BEHAVIOUR.md §9).
@Suite("Escaping user text") struct EscapingTests {
    let attack = "<script>alert('x')</script>"
    let escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"

    @Test("a promo code typed by the shopper comes back escaped in the field and in the error")
    func promoCode() throws {
        let page = try Baskets.page(Baskets.capLines, error: "The code \(attack) isn't valid.", typed: attack)
        let html = StorePages.basket(page, context: Shopper.anonymous.context()).renderString()
        #expect(!html.contains("<script"))
        #expect(html.contains(#"value="\#(escaped)""#))
        #expect(html.contains("The code \(escaped) isn&#39;t valid."))
    }

    @Test("a search query comes back escaped in the box, the title and the no-results message")
    func searchQuery() {
        let query = CatalogQuery(search: attack)
        let page = CatalogPage(query: query, categories: Products.categories, products: [])
        let html = StorePages.catalog(page, context: Shopper.anonymous.context()).renderString()
        #expect(!html.contains("<script"))
        #expect(html.contains(#"value="\#(escaped)""#))
        #expect(html.contains("No products match “\(escaped)”."))
        #expect(html.contains("<title>Search results for “\(escaped)” — OnlineStore</title>"))
    }

    @Test("a search query is percent-encoded in the address the add-to-basket forms return to")
    func searchQueryInReturnAddress() {
        let query = CatalogQuery(search: "\"><script>&x=1")
        #expect(query.path == "/?q=%22%3E%3Cscript%3E%26x%3D1")
    }

    @Test("a customer's name is escaped in the header and on the profile")
    func customerName() {
        var context = Shopper.customer.context()
        context.customerName = attack
        let profile = ProfilePage(firstName: attack, lastName: "O'Brien", email: "a@b.test", tier: .free)
        let html = StorePages.profile(profile, context: context).renderString()
        #expect(!html.contains("<script"))
        #expect(html.contains("Signed in as <strong>\(escaped)</strong>"))
        #expect(html.contains("<dd>\(escaped) O&#39;Brien</dd>"))
    }

    @Test("the CSRF token and the idempotency key cannot break out of their hidden fields")
    func hiddenFields() throws {
        var context = Shopper.anonymous.context()
        context.csrfToken = #"t"><script>"#
        var review = try PageGallery.review()
        review.idempotencyKey = #"k"><script>"#
        let html = StorePages.checkoutReview(review, context: context).renderString()
        #expect(!html.contains("<script"))
        #expect(html.contains(#"name="csrf" value="t&quot;&gt;&lt;script&gt;""#))
        #expect(html.contains(#"name="idempotency_key" value="k&quot;&gt;&lt;script&gt;""#))
    }

    @Test("product titles and order ids are escaped, and an order id is percent-encoded in its link")
    func catalogText() {
        let product = Product(
            id: ProductID(9), title: "Cap <b>", description: attack, category: "apparel", price: eur(1_00),
            imagePath: "/images/cap.svg", rating: rating(40, 1), stock: 5)
        let page = ProductPage(product: ProductSummary(product), description: product.description)
        let html = StorePages.product(page, context: Shopper.anonymous.context()).renderString()
        #expect(!html.contains("<script") && !html.contains("<b>"))
        #expect(html.contains(#"alt="Cap &lt;b&gt;""#))

        let orders = OrdersPage(orders: [
            .init(id: "ord_1/../x?<", placedAt: Fixtures.placedAt, itemCount: 1, total: eur(1_00), paymentStatus: .paid)
        ])
        let list = StorePages.orders(orders, context: Shopper.anonymous.context()).renderString()
        #expect(list.contains(#"href="/orders/ord_1%2F..%2Fx%3F%3C""#))
        #expect(list.contains("ord_1/../x?&lt;"))
    }
}
