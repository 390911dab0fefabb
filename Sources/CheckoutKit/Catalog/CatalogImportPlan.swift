/// One product as a catalog file gives it (docs/BEHAVIOUR.md §13.14): its details, already checked
/// by ``ProductRules``, and the stock counted on the shelf.
public struct ImportedProduct: Hashable, Sendable {
    /// The physical line of the file where its record starts.
    public let line: Int
    public let details: ProductDetails
    /// Units on hand: what the stock is to be after the import.
    public let stock: Int

    public init(line: Int, details: ProductDetails, stock: Int) {
        self.line = line
        self.details = details
        self.stock = stock
    }
}

/// A product of the catalog as an import compares it with a file: found by its SKU.
public struct CatalogEntry: Hashable, Sendable {
    public let id: ProductID
    public let details: ProductDetails
    public let stock: Int
    /// The version of its details; an import changes them only from this one.
    public let version: Int64

    public init(id: ProductID, details: ProductDetails, stock: Int, version: Int64) {
        self.id = id
        self.details = details
        self.stock = stock
        self.version = version
    }
}

/// A field a catalog file may change on a product it names by SKU (the SKU itself is the key).
public enum ImportedField: String, CaseIterable, Hashable, Sendable {
    case title
    case description
    case category
    case price
    case stock
    case active
}

/// One field an import changes, as it is and as it will be, written as the file writes it
/// (`12.50`, `true`, `7`).
public struct FieldChange: Hashable, Sendable {
    /// The most characters of a description a change shows on each side; the rest is cut with `…`
    /// (descriptions may be 5,000 characters long, and a preview lists every change).
    public static let shownDescriptionCharacters = 200

    public let field: ImportedField
    public let from: String
    public let to: String

    public init(field: ImportedField, from: String, to: String) {
        self.field = field
        self.from = from
        self.to = to
    }
}

/// What importing a catalog file would do to the catalog as it is: the products it adds, the
/// products it changes (field by field, old → new) and how many it leaves as they are. Pure: the
/// same file against the same catalog always gives the same plan, so a preview and the import
/// that follows it (which plans again against the catalog as it is then) agree unless the
/// catalog changed in between.
///
/// Products the file does not name are left alone; a file archives a product only by saying
/// `active` is false.
public struct CatalogImportPlan: Hashable, Sendable {
    /// A product the catalog does not have yet (no product has its SKU): added with no stock,
    /// then counted to ``stock``.
    public struct Creation: Hashable, Sendable {
        public let line: Int
        public let details: ProductDetails
        public let stock: Int
    }

    /// A product the file changes.
    public struct Update: Hashable, Sendable {
        public let line: Int
        public let id: ProductID
        /// The version the details are changed from.
        public let version: Int64
        /// The details as the catalog had them when planned.
        public let previous: ProductDetails
        /// The details as the file has them.
        public let details: ProductDetails
        /// Whether the details differ (a new version), beside the stock.
        public let changesDetails: Bool
        /// The stock as the catalog had it when planned, and as the file counts it.
        public let stockBefore: Int
        public let stock: Int
        /// Every field that differs, in ``ImportedField``'s order.
        public let changes: [FieldChange]
    }

    /// In the file's order.
    public let creations: [Creation]
    /// In the file's order.
    public let updates: [Update]
    /// Products the file names exactly as they are.
    public let unchanged: Int

    /// Compares `products` (SKUs distinct, as a checked file's are) with `catalog` (every product,
    /// by SKU).
    public init(importing products: [ImportedProduct], into catalog: [String: CatalogEntry]) {
        var creations: [Creation] = []
        var updates: [Update] = []
        var unchanged = 0
        for product in products {
            guard let entry = catalog[product.details.sku] else {
                creations.append(Creation(line: product.line, details: product.details, stock: product.stock))
                continue
            }
            let changes = Self.changes(from: entry, to: product)
            guard !changes.isEmpty else {
                unchanged += 1
                continue
            }
            updates.append(
                Update(
                    line: product.line, id: entry.id, version: entry.version, previous: entry.details,
                    details: product.details,
                    changesDetails: entry.details != product.details, stockBefore: entry.stock, stock: product.stock,
                    changes: changes))
        }
        self.creations = creations
        self.updates = updates
        self.unchanged = unchanged
    }

    /// Whether the import would change nothing at all.
    public var isEmpty: Bool { creations.isEmpty && updates.isEmpty }

    /// Whether the import would move any product's stock (a new product with stock, or a count
    /// that differs): an adjustment of stock, which needs its own permission.
    public var changesStock: Bool {
        creations.contains { $0.stock > 0 } || updates.contains { $0.stock != $0.stockBefore }
    }

    /// The fields of `entry` that `product` changes.
    static func changes(from entry: CatalogEntry, to product: ImportedProduct) -> [FieldChange] {
        let old = entry.details
        let new = product.details
        var changes: [FieldChange] = []
        for field in ImportedField.allCases {
            switch field {
            case .title where old.title != new.title:
                changes.append(FieldChange(field: field, from: old.title, to: new.title))
            case .description where old.description != new.description:
                changes.append(
                    FieldChange(field: field, from: shown(old.description), to: shown(new.description)))
            case .category where old.category != new.category:
                changes.append(FieldChange(field: field, from: old.category, to: new.category))
            case .price where old.price != new.price:
                changes.append(FieldChange(field: field, from: old.price.amountText, to: new.price.amountText))
            case .stock where entry.stock != product.stock:
                changes.append(FieldChange(field: field, from: String(entry.stock), to: String(product.stock)))
            case .active where old.active != new.active:
                changes.append(FieldChange(field: field, from: String(old.active), to: String(new.active)))
            default:
                continue
            }
        }
        return changes
    }

    /// A description cut to ``FieldChange/shownDescriptionCharacters`` characters, with `…` when cut.
    static func shown(_ description: String) -> String {
        let limit = FieldChange.shownDescriptionCharacters
        guard description.count > limit else { return description }
        return String(description.prefix(limit)) + "…"
    }
}
