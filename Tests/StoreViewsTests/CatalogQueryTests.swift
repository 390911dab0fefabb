import Testing

@testable import StoreViews

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

    @Test("reads and writes the page; a page that is not a positive whole number is the first")
    func page() {
        #expect(CatalogQuery(parameters: ["category": "hydration", "page": "3"]).page == 3)
        for text in ["0", "-2", "two", "", "1.5", "99999999999999999999999", "+2", "٣"] {
            #expect(CatalogQuery(parameters: ["page": text]).page == 1, "\(text)")
        }
        #expect(CatalogQuery(category: "hydration", page: 2).path == "/?category=hydration&page=2")
        #expect(CatalogQuery(category: "hydration", page: 1).path == "/?category=hydration")
        #expect(
            CatalogQuery(search: "bottle", sort: .topRated, page: 4).inCategory("hydration").path
                == "/?q=bottle&category=hydration&sort=rating")
    }

    @Test("every category shows its first products and how many there are; one category comes in pages")
    func pages() {
        let products = Products.many(100).map { ProductSummary($0) }
        let hydration = products.filter { $0.category == "hydration" }
        let all = CatalogPage(query: CatalogQuery(), categories: Products.categories, products: products)
        #expect(all.pages == nil)
        #expect(all.sections.map(\.category) == Products.categories)
        let first = all.sections.first { $0.category == "hydration" }
        #expect(first?.products == Array(hydration.prefix(CatalogPage.previewCount)))
        #expect(first?.total == hydration.count)
        #expect(all.sections.filter { $0.category != "hydration" }.allSatisfy { $0.total == $0.products.count })

        var shown: [ProductSummary] = []
        for number in 1...3 {
            let page = CatalogPage(
                query: CatalogQuery(category: "hydration", page: number), categories: Products.categories,
                products: products)
            #expect(page.pages == CatalogPage.Pages(current: number, count: 3))
            #expect(page.sections.count == 1 && page.sections[0].total == hydration.count)
            #expect(page.sections[0].products.count == (number < 3 ? CatalogPage.pageSize : hydration.count - 96))
            shown += page.sections[0].products
        }
        #expect(shown == hydration)
        // Past the last page: the last one.
        let beyond = CatalogPage(
            query: CatalogQuery(category: "hydration", page: 40), categories: Products.categories, products: products)
        #expect(
            beyond.pages?.current == 3 && beyond.sections[0].products == Array(hydration.suffix(hydration.count - 96)))
        // The demo's catalog fits: no pages, every product shown.
        let demo = CatalogPage(
            query: CatalogQuery(category: "apparel"), categories: Products.categories,
            products: Products.all.map { ProductSummary($0) })
        #expect(demo.pages == nil && demo.sections[0].products.count == 2)
    }

    @Test("counts are written with their thousands grouped")
    func grouping() {
        let cases = [(0, "0"), (7, "7"), (999, "999"), (1_000, "1,000"), (10_005, "10,005"), (1_234_567, "1,234,567")]
        for (count, text) in cases { #expect(PageContext(csrfToken: "").number(count) == text) }
    }
}
