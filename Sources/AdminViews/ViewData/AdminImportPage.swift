import CheckoutKit

/// The catalog import at `/admin/products/import`: upload a CSV file, look at the preview, then
/// **Import** all of it or nothing.
public struct AdminImportPage: Hashable, Sendable {
    /// Where the import is.
    public enum State: Hashable, Sendable {
        /// The upload form; `fileError` says why the last file could not be read at all
        /// ("That file is not UTF-8 text.").
        case upload(fileError: String?)
        /// What the uploaded file would do.
        case preview(Preview)
        /// The import is done.
        case imported(newCount: Int, changedCount: Int)
    }

    /// What an uploaded file would do to the catalog.
    public struct Preview: Hashable, Sendable {
        /// The preview's id, sent back by **Import** in the hidden `upload` field.
        public var uploadID: String
        /// The file's name as uploaded, if it had one.
        public var fileName: String?
        public var newProducts: [NewProduct]
        public var changedProducts: [ChangedProduct]
        public var unchangedCount: Int
        /// Every bad row; while there is one, nothing can be imported.
        public var problems: [Problem]

        public init(
            uploadID: String, fileName: String? = nil, newProducts: [NewProduct], changedProducts: [ChangedProduct],
            unchangedCount: Int, problems: [Problem]
        ) {
            self.uploadID = uploadID
            self.fileName = fileName
            self.newProducts = newProducts
            self.changedProducts = changedProducts
            self.unchangedCount = unchangedCount
            self.problems = problems
        }
    }

    /// A row whose SKU the catalog does not have yet.
    public struct NewProduct: Hashable, Sendable {
        public var sku: String
        public var title: String
        public var category: String
        public var price: Money
        public var stock: Int
        public var active: Bool

        public init(sku: String, title: String, category: String, price: Money, stock: Int, active: Bool) {
            self.sku = sku
            self.title = title
            self.category = category
            self.price = price
            self.stock = stock
            self.active = active
        }
    }

    /// A row that changes a product the catalog has.
    public struct ChangedProduct: Hashable, Sendable {
        public var sku: String
        /// The title after the import.
        public var title: String
        public var changes: [Change]

        public init(sku: String, title: String, changes: [Change]) {
            self.sku = sku
            self.title = title
            self.changes = changes
        }
    }

    /// One field of a changed product, before and after, already written for people (`€21.90`,
    /// `Active`, `12`).
    public struct Change: Hashable, Sendable {
        /// `Title`, `Price`, `Stock`…
        public var field: String
        public var old: String
        public var new: String

        public init(field: String, old: String, new: String) {
            self.field = field
            self.old = old
            self.new = new
        }
    }

    /// A bad row: its line in the file (the header is line 1) and why.
    public struct Problem: Hashable, Sendable {
        public var line: Int
        public var message: String

        public init(line: Int, message: String) {
            self.line = line
            self.message = message
        }
    }

    public var state: State
    /// The columns the file must have, in order.
    public static let columns = ["sku", "title", "description", "category", "price", "stock", "active"]

    public init(state: State) {
        self.state = state
    }
}
