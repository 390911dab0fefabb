/// The catalog at `/`: the products by category, with the search and sort form.
public struct CatalogPage: Hashable, Sendable {
    /// The products of one category, in the order the query asked for.
    public struct Section: Hashable, Sendable {
        /// The category's name as the catalog knows it, e.g. `apparel`.
        public var category: String
        public var products: [ProductSummary]

        public init(category: String, products: [ProductSummary]) {
            self.category = category
            self.products = products
        }
    }

    /// The search, category and order the list was made for; they fill the form again.
    public var query: CatalogQuery
    /// Every category, for the category menu, in the store's order.
    public var categories: [String]
    /// What to show; empty when nothing matches.
    public var sections: [Section]

    public init(query: CatalogQuery, categories: [String], sections: [Section]) {
        self.query = query
        self.categories = categories
        self.sections = sections
    }

    /// The page for `query` over the whole catalog.
    public init(query: CatalogQuery, categories: [String], products: [ProductSummary]) {
        self.init(query: query, categories: categories, sections: query.sections(of: products, categories: categories))
    }
}
