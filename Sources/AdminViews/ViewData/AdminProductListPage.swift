import CheckoutKit

/// Every product, active and archived, at `/admin/products`, searched and a page at a time.
public struct AdminProductListPage: Hashable, Sendable {
    /// One product in the table.
    public struct Row: Hashable, Sendable, Identifiable {
        public var id: ProductID
        public var title: String
        public var sku: String
        public var category: String
        public var price: Money
        public var stock: Int
        /// Listed in the shop; `false` is archived.
        public var active: Bool

        public init(
            id: ProductID, title: String, sku: String, category: String, price: Money, stock: Int, active: Bool
        ) {
            self.id = id
            self.title = title
            self.sku = sku
            self.category = category
            self.price = price
            self.stock = stock
            self.active = active
        }
    }

    /// The search text (query `q`), matched against title and SKU; empty for every product.
    public var search: String
    public var products: [Row]
    public var paging: AdminPaging

    public init(search: String = "", products: [Row], paging: AdminPaging) {
        self.search = search
        self.products = products
        self.paging = paging
    }
}
