import HTML

extension StorePages {
    /// The catalog at `/`: the search / category / sort form (a GET form, so the list's state
    /// lives in the query string) and the products by category, each with **Add to basket**.
    public static func catalog(_ page: CatalogPage, context: PageContext) -> HTMLDocument {
        let query = page.query
        let title = query.search.isEmpty ? "Products" : "Search results for “\(query.search)”"
        return PageLayout.document(
            title: title, context: context, section: .catalog,
            .h1("Products"),
            filters(page, context: context),
            page.sections.isEmpty
                ? noResults(query)
                : .fragment(page.sections.map { section(of: $0, page: page, context: context) }))
    }

    private static func filters(_ page: CatalogPage, context: PageContext) -> Node {
        let query = page.query
        let categoryOptions = page.categories.map { category in
            Node.option([.value(category), .selected(category == query.category)], context.displayName(category))
        }
        let sortOptions = CatalogQuery.Sort.allCases.map { sort in
            Node.option([.value(sort.rawValue), .selected(sort == query.sort)], sort.label)
        }
        return .form(
            [
                .method(.get), .action(StorePaths.catalog), .class("catalog-filters"), .role("search"),
                .ariaLabel("Products"),
            ],
            .div(
                [.class("field field-search")],
                .label([.for("search")], "Search"),
                .input([
                    .type("search"), .id("search"), .name(FormFields.search), .value(query.search),
                    .maxlength(CatalogQuery.maximumSearchLength), .autocomplete("off"),
                ])),
            .div(
                [.class("field")],
                .label([.for("category")], "Category"),
                .select(
                    [.id("category"), .name(FormFields.category)],
                    .option([.value(""), .selected(query.category == nil)], "All categories"),
                    .fragment(categoryOptions))),
            .div(
                [.class("field")],
                .label([.for("sort")], "Sort by"),
                .select([.id("sort"), .name(FormFields.sort)], .fragment(sortOptions))),
            Forms.submit("Show products"))
    }

    private static func noResults(_ query: CatalogQuery) -> Node {
        .div(
            [.class("empty-state")],
            .p(query.search.isEmpty ? "No products in this category yet." : "No products match “\(query.search)”."),
            .p([], .a([.href(StorePaths.catalog)], "Show all products")))
    }

    private static func section(of section: CatalogPage.Section, page: CatalogPage, context: PageContext) -> Node {
        let headingID = "category-\(section.category)"
        return .section(
            [.class("category"), .ariaLabelledBy(headingID)],
            .h2([.id(headingID)], context.displayName(section.category)),
            page.pages == nil
                ? .empty
                : .p(
                    [.class("list-status")],
                    "Showing \(context.number(firstShown(page))) to \(context.number(firstShown(page) + section.products.count - 1)) of \(context.number(section.total))"
                ),
            .ul(
                [.class("product-grid")],
                .fragment(section.products.map { card($0, returnTo: page.query.path, context: context) })),
            section.total > section.products.count && page.query.category == nil
                ? .p(
                    [.class("see-all")],
                    .a(
                        [.href(page.query.inCategory(section.category).path)],
                        "See all \(context.number(section.total)) in \(context.displayName(section.category))"))
                : .empty,
            page.pages.map { pager($0, category: section.category, query: page.query, context: context) } ?? .empty)
    }

    /// The position, from 1, of the first product `page` shows in its category's list.
    private static func firstShown(_ page: CatalogPage) -> Int {
        ((page.pages?.current ?? 1) - 1) * CatalogPage.pageSize + 1
    }

    /// **Previous page** and **Next page** around “Page 2 of 5”, for one category's list.
    private static func pager(
        _ pages: CatalogPage.Pages, category: String, query: CatalogQuery, context: PageContext
    ) -> Node {
        .nav(
            [.class("pager"), .ariaLabel("Pages")],
            pages.current > 1
                ? .a([.href(query.inCategory(category, page: pages.current - 1).path)], "Previous page") : .empty,
            .span([.ariaCurrent("page")], "Page \(context.number(pages.current)) of \(context.number(pages.count))"),
            pages.current < pages.count
                ? .a([.href(query.inCategory(category, page: pages.current + 1).path)], "Next page") : .empty)
    }

    private static func card(_ product: ProductSummary, returnTo: String, context: PageContext) -> Node {
        let titleID = "product-\(product.id.rawValue)-title"
        return .li(
            [.class("product-card")],
            ProductFacts.image(product.imagePath, title: product.title),
            .h3([.id(titleID)], .a([.href(StorePaths.product(product.id))], product.title)),
            ProductFacts.price(product, context: context),
            ProductFacts.rating(product),
            ProductFacts.stock(product),
            Forms.post(
                StorePaths.basketItems, context: context, class: "add-form",
                Forms.hidden(FormFields.productID, String(product.id.rawValue)),
                Forms.hidden(FormFields.quantity, "1"),
                Forms.hidden(FormFields.returnTo, returnTo),
                .button(
                    [
                        .type("submit"), .class("button"), .ariaDescribedBy(titleID),
                        .disabled(!product.stock.isAvailable),
                    ],
                    "Add to basket")))
    }
}
