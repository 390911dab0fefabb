import CheckoutKit
import Foundation
import StoreAPI

/// What the catalog shows: a search text, a category and an order, all kept in the query string
/// (`/?q=cap&category=apparel&sort=price-asc`) so a link or the back button shows the same list.
public struct CatalogQuery: Hashable, Sendable {
    /// The orders the catalog can be shown in; the raw value is the `sort` parameter.
    public enum Sort: String, Hashable, Sendable, CaseIterable {
        /// The store's own order.
        case featured
        case priceLowToHigh = "price-asc"
        case priceHighToLow = "price-desc"
        case topRated = "rating"

        /// The choice as the sort menu shows it.
        public var label: String {
            switch self {
            case .featured: "Featured"
            case .priceLowToHigh: "Price: low to high"
            case .priceHighToLow: "Price: high to low"
            case .topRated: "Top rated"
            }
        }
    }

    /// The longest search text that is kept; anything longer is cut.
    public static let maximumSearchLength = 100

    /// What the shopper typed in the search box, trimmed; empty for no search.
    public var search: String
    /// The category to show (its name, e.g. `apparel`), or `nil` for all.
    public var category: String?
    public var sort: Sort
    /// The page of one category's products, from 1 (a page past the last shows the last).
    public var page: Int

    public init(search: String = "", category: String? = nil, sort: Sort = .featured, page: Int = 1) {
        self.search = String(search.trimmingCharacters(in: .whitespacesAndNewlines).prefix(Self.maximumSearchLength))
        self.category = category.flatMap { $0.isEmpty ? nil : $0 }
        self.sort = sort
        self.page = max(1, page)
    }

    /// Reads the query string's parameters (`q`, `category`, `sort`); anything missing or
    /// unknown falls back to showing everything in the store's order.
    public init(parameters: [String: String]) {
        self.init(
            search: parameters[FormFields.search] ?? "", category: parameters[FormFields.category],
            sort: parameters[FormFields.sort].flatMap(Sort.init(rawValue:)) ?? .featured,
            page: parameters[FormFields.page].flatMap { Int64(positiveDecimal: $0) }.flatMap { Int(exactly: $0) } ?? 1)
    }

    /// Whether the shopper narrowed the list at all.
    public var isFiltered: Bool { !search.isEmpty || category != nil }

    /// The catalog's address for this query, with only the parameters that differ from the
    /// defaults: `/`, `/?q=cap`, `/?category=apparel&sort=price-asc`.
    public var path: String {
        var parameters: [(String, String)] = []
        if !search.isEmpty { parameters.append((FormFields.search, search)) }
        if let category { parameters.append((FormFields.category, category)) }
        if sort != .featured { parameters.append((FormFields.sort, sort.rawValue)) }
        if page > 1 { parameters.append((FormFields.page, String(page))) }
        return StorePaths.catalog + URLText.query(parameters)
    }

    /// The same search and order over one category, from its first page (or the page given).
    public func inCategory(_ category: String, page: Int = 1) -> CatalogQuery {
        CatalogQuery(search: search, category: category, sort: sort, page: page)
    }

    /// The products this query shows, grouped by `categories` in their order and sorted within
    /// each group. A search matches titles, ignoring case and accents.
    public func sections(of products: [ProductSummary], categories: [String]) -> [CatalogPage.Section] {
        let matching = products.filter { product in
            (category == nil || product.category == category)
                && (search.isEmpty || product.title.localizedStandardContains(search))
        }
        return categories.compactMap { name in
            let inCategory = sorted(matching.filter { $0.category == name })
            return inCategory.isEmpty ? nil : CatalogPage.Section(category: name, products: inCategory)
        }
    }

    private func sorted(_ products: [ProductSummary]) -> [ProductSummary] {
        switch sort {
        case .featured:
            products
        case .priceLowToHigh:
            products.sorted { ($0.price.minorUnits, $0.id) < ($1.price.minorUnits, $1.id) }
        case .priceHighToLow:
            products.sorted { ($1.price.minorUnits, $0.id) < ($0.price.minorUnits, $1.id) }
        case .topRated:
            products.sorted { ($1.rating.tenths, $1.rating.count, $0.id) < ($0.rating.tenths, $0.rating.count, $1.id) }
        }
    }
}
