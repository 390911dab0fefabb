import CheckoutKit
import StoreSQL

/// Reads the catalog as the shop shows it: the active products and the categories. An archived
/// product is not listed and cannot be found; in a basket that still holds it, it reads as sold
/// out (its stock shows as zero), so no face offers it and the checkout refuses it.
public struct CatalogRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    static let productColumns: SQLQuery = """
        p.id, p.title, p.description, p.category, p.price_minor, p.currency, p.image_path, \
        p.rating_tenths, p.rating_count, CASE WHEN p.active = 1 THEN p.stock ELSE 0 END AS stock
        """

    /// Every active product, by id.
    public func products() async throws -> [Product] {
        try await database.read { connection in
            try connection.query("SELECT \(Self.productColumns) FROM products p WHERE p.active = 1 ORDER BY p.id")
                .map(Self.product)
        }
    }

    /// The active product `id`, or `nil` when there is none.
    public func product(_ id: ProductID) async throws -> Product? {
        try await database.read { connection in
            try connection.queryFirst(
                "SELECT \(Self.productColumns) FROM products p WHERE p.id = \(id.rawValue) AND p.active = 1"
            ).map(Self.product)
        }
    }

    /// The units in stock of each of `products` that exists (0 for one no longer active).
    public func stock(of products: Set<ProductID>) async throws -> [ProductID: Int] {
        let ids = products.map(\.rawValue).sorted()
        return try await database.read { connection in
            var stock: [ProductID: Int] = [:]
            // A few hundred binds a statement, well inside both databases' limits.
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = ids[start..<min(start + 500, ids.count)]
                let list = SQLQuery.joined(chunk.map { "\($0)" }, separator: ", ")
                for row in try connection.query(
                    "SELECT id, CASE WHEN active = 1 THEN stock ELSE 0 END AS stock FROM products WHERE id IN (\(list))"
                ) {
                    stock[ProductID(try row.decode("id", as: Int64.self))] = try row.decode("stock", as: Int.self)
                }
            }
            return stock
        }
    }

    /// The names of the categories with an active product, in the store's order.
    public func categories() async throws -> [String] {
        try await database.read { connection in
            try connection.query(
                """
                SELECT name FROM categories c
                WHERE EXISTS (SELECT 1 FROM products p WHERE p.category = c.name AND p.active = 1)
                ORDER BY position, name
                """
            ).map {
                try $0.decode("name", as: String.self)
            }
        }
    }

    /// The products of `category` by id, or `nil` when there is no such category.
    public func products(inCategory category: String) async throws -> [Product]? {
        try await database.read { connection in
            guard try connection.queryFirst("SELECT name FROM categories WHERE name = \(category)") != nil else {
                return nil
            }
            return try connection.query(
                """
                SELECT \(Self.productColumns) FROM products p WHERE p.category = \(category) AND p.active = 1
                ORDER BY p.id
                """
            ).map(Self.product)
        }
    }

    static func product(from row: SQLRow) throws -> Product {
        guard let rating = Rating(tenths: try row.decode("rating_tenths"), count: try row.decode("rating_count"))
        else { throw DatabaseError.decoding(column: "rating_tenths", expected: "a rating between 0 and 5") }
        return Product(
            id: ProductID(try row.decode("id", as: Int64.self)), title: try row.decode("title"),
            description: try row.decode("description"), category: try row.decode("category"),
            price: try row.money("price_minor"), imagePath: try row.decode("image_path"), rating: rating,
            stock: try row.decode("stock"))
    }
}
