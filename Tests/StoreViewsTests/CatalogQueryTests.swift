import StoreViews
import Testing

@Suite("Catalog query") struct CatalogQueryTests {
    @Test("reads the query string and falls back to everything in the store's order")
    func parameters() {
        let query = CatalogQuery(parameters: ["q": "  cap ", "category": "apparel", "sort": "price-desc"])
        #expect(query == CatalogQuery(search: "cap", category: "apparel", sort: .priceHighToLow))
        #expect(CatalogQuery(parameters: ["sort": "cheapest", "category": ""]) == CatalogQuery())
        #expect(CatalogQuery(search: String(repeating: "a", count: 500)).search.count == 100)
    }

    @Test("writes only what differs from the defaults")
    func path() {
        #expect(CatalogQuery().path == "/")
        #expect(CatalogQuery(search: "trail mix").path == "/?q=trail%20mix")
        #expect(CatalogQuery(category: "apparel", sort: .topRated).path == "/?category=apparel&sort=rating")
    }

    @Test("filters by category and title, and sorts within each category")
    func sections() {
        let products = Products.all.map { ProductSummary($0) }
        let apparelByPrice = CatalogQuery(category: "apparel", sort: .priceLowToHigh)
            .sections(of: products, categories: Products.categories)
        #expect(apparelByPrice.map(\.category) == ["apparel"])
        #expect(apparelByPrice.first?.products.map(\.title) == ["Running socks", "Running cap"])
        let search = CatalogQuery(search: "RUNNING").sections(of: products, categories: Products.categories)
        #expect(search.flatMap(\.products).map(\.title) == ["Running cap", "Running socks"])
        let all = CatalogQuery().sections(of: products, categories: Products.categories)
        #expect(all.map(\.category) == Products.categories)
        #expect(CatalogQuery(search: "kayak").sections(of: products, categories: Products.categories).isEmpty)
    }
}
