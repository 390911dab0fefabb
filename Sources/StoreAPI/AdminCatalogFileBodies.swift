import CheckoutKit

/// The answer to `POST /api/admin/products/import` (docs/BEHAVIOUR.md §13.14): what importing the
/// file would do, and every problem it has. Nothing is changed by a preview.
public struct CatalogImportPreviewBody: Codable, Hashable, Sendable {
    /// The id to import the file with (`POST /api/admin/products/import/{upload}/apply`); absent
    /// when the file has a problem and cannot be imported.
    public var upload: String?
    /// Products the catalog does not have yet (no product has their SKU), in the file's order.
    public var new: [CatalogImportNewProduct]
    /// Products the file changes, in the file's order, each with the fields it changes.
    public var changed: [CatalogImportChangedProduct]
    /// How many products the file names exactly as they are.
    public var unchanged: Int
    /// Every problem, by line, in the file's order: at most 100, then one without a line that
    /// counts the rest. Empty when the file can be imported.
    public var problems: [CatalogFileProblemBody]

    public init(
        upload: String?, new: [CatalogImportNewProduct], changed: [CatalogImportChangedProduct], unchanged: Int,
        problems: [CatalogFileProblemBody]
    ) {
        self.upload = upload
        self.new = new
        self.changed = changed
        self.unchanged = unchanged
        self.problems = problems
    }
}

/// A product an import would add.
public struct CatalogImportNewProduct: Codable, Hashable, Sendable {
    /// The line of the file where its record starts.
    public var line: Int
    public var sku: String
    public var title: String
    public var category: String
    public var price: Money
    public var stock: Int
    public var active: Bool

    public init(line: Int, sku: String, title: String, category: String, price: Money, stock: Int, active: Bool) {
        self.line = line
        self.sku = sku
        self.title = title
        self.category = category
        self.price = price
        self.stock = stock
        self.active = active
    }
}

/// A product an import would change.
public struct CatalogImportChangedProduct: Codable, Hashable, Sendable {
    /// The line of the file where its record starts.
    public var line: Int
    public var productID: Int64
    public var sku: String
    /// Its title as the file has it.
    public var title: String
    /// Every field that differs, in the order `title`, `description`, `category`, `price`,
    /// `stock`, `active`.
    public var changes: [CatalogFieldChangeBody]

    private enum CodingKeys: String, CodingKey {
        case line, sku, title, changes
        case productID = "product_id"
    }

    public init(line: Int, productID: Int64, sku: String, title: String, changes: [CatalogFieldChangeBody]) {
        self.line = line
        self.productID = productID
        self.sku = sku
        self.title = title
        self.changes = changes
    }
}

/// One field an import changes, as it is and as it will be, written as the file writes it
/// (`12.50`, `true`, `7`); a description is cut to 200 characters with `…`.
public struct CatalogFieldChangeBody: Codable, Hashable, Sendable {
    /// `title`, `description`, `category`, `price`, `stock` or `active`.
    public var field: String
    public var from: String
    public var to: String

    public init(field: String, from: String, to: String) {
        self.field = field
        self.from = from
        self.to = to
    }
}

/// Something wrong with a catalog file: on a line (absent for the file as a whole), in a column
/// when it is one field's, and why — a message that completes `Line 7: … .`, or a whole sentence
/// for the file as a whole.
public struct CatalogFileProblemBody: Codable, Hashable, Sendable {
    public var line: Int?
    /// One of `sku`, `title`, `description`, `category`, `price`, `stock`, `active`.
    public var column: String?
    public var message: String

    public init(line: Int?, column: String?, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
}

/// The answer to `POST /api/admin/products/import/{upload}/apply`: what the import did.
public struct CatalogImportSummaryBody: Codable, Hashable, Sendable {
    /// Products added.
    public var created: Int
    /// Products changed (details, stock or both).
    public var changed: Int
    /// Products the file named exactly as they were.
    public var unchanged: Int
    /// Stock ledger lines written with reason `counted`.
    public var stockAdjustments: Int

    private enum CodingKeys: String, CodingKey {
        case created, changed, unchanged
        case stockAdjustments = "stock_adjustments"
    }

    public init(created: Int, changed: Int, unchanged: Int, stockAdjustments: Int) {
        self.created = created
        self.changed = changed
        self.unchanged = unchanged
        self.stockAdjustments = stockAdjustments
    }
}

/// The answer to an import refused because the file has problems (422 `invalid_catalog_file`):
/// the error and every problem. Nothing was imported.
public struct CatalogImportRefusalBody: Codable, Hashable, Sendable {
    public var error: ErrorBody.Detail
    public var problems: [CatalogFileProblemBody]

    public init(error: ErrorBody.Detail, problems: [CatalogFileProblemBody]) {
        self.error = error
        self.problems = problems
    }
}
