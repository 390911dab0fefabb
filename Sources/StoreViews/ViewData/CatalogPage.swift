/// The catalog at `/`: the products by category, with the search and sort form.
///
/// A shop's catalog may hold thousands of products: the page of every category shows the first
/// ``previewCount`` of each, with a link to the rest, and one category's list comes in pages of
/// ``pageSize``.
public struct CatalogPage: Hashable, Sendable {
    /// The products of one category, in the order the query asked for.
    public struct Section: Hashable, Sendable {
        /// The category's name as the catalog knows it, e.g. `apparel`.
        public var category: String
        public var products: [ProductSummary]
        /// How many of the category's products match the query, shown here or not.
        public var total: Int

        public init(category: String, products: [ProductSummary], total: Int? = nil) {
            self.category = category
            self.products = products
            self.total = max(total ?? products.count, products.count)
        }
    }

    /// Where one category's list is among its pages, when it has more than one.
    public struct Pages: Hashable, Sendable {
        /// From 1.
        public var current: Int
        public var count: Int

        public init(current: Int, count: Int) {
            self.current = current
            self.count = count
        }
    }

    /// The products of each category the page of every category shows.
    public static let previewCount = 12
    /// The products of one category a page shows.
    public static let pageSize = 48

    /// The search, category and order the list was made for; they fill the form again.
    public var query: CatalogQuery
    /// Every category, for the category menu, in the store's order.
    public var categories: [String]
    /// What to show; empty when nothing matches.
    public var sections: [Section]
    /// One category's place among its pages; `nil` when it fits on one, or for every category.
    public var pages: Pages?

    public init(query: CatalogQuery, categories: [String], sections: [Section], pages: Pages? = nil) {
        self.query = query
        self.categories = categories
        self.sections = sections
        self.pages = pages
    }

    /// The page for `query` over the whole catalog.
    public init(query: CatalogQuery, categories: [String], products: [ProductSummary]) {
        let matching = query.sections(of: products, categories: categories)
        var query = query
        guard query.category != nil, let only = matching.first else {
            // Every category on one page: a page number means nothing here, and is not echoed.
            query.page = 1
            self.init(
                query: query, categories: categories,
                sections: matching.map { section in
                    Section(
                        category: section.category, products: Array(section.products.prefix(Self.previewCount)),
                        total: section.products.count)
                })
            return
        }
        let count = max(1, (only.products.count + Self.pageSize - 1) / Self.pageSize)
        let current = min(query.page, count)
        // The page shown is the one the list's links and `return_to` carry, never a page past it.
        query.page = current
        let start = (current - 1) * Self.pageSize
        self.init(
            query: query, categories: categories,
            sections: [
                Section(
                    category: only.category,
                    products: Array(only.products[start..<min(start + Self.pageSize, only.products.count)]),
                    total: only.products.count)
            ],
            pages: count > 1 ? Pages(current: current, count: count) : nil)
    }
}
