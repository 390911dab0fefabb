import CheckoutKit
import Foundation

/// A product as the back office's API shows it: archived ones too, with its SKU, stock, version
/// and last edit (docs/BEHAVIOUR.md §13.5).
public struct AdminProductBody: Codable, Hashable, Sendable {
    public var id: Int64
    public var sku: String
    public var title: String
    public var description: String
    public var category: String
    public var price: Money
    public var stock: Int
    /// Listed in the shop; `false` is archived.
    public var active: Bool
    /// The version an edit names (`PATCH` with a stale one is 409 `edit_conflict`).
    public var version: Int64
    /// The image's URL path on this server.
    public var image: String
    /// The last edit, an ISO 8601 timestamp, and who made it; absent when never edited.
    public var updatedAt: String?
    public var updatedBy: String?

    private enum CodingKeys: String, CodingKey {
        case id, sku, title, description, category, price, stock, active, version, image
        case updatedAt = "updated_at"
        case updatedBy = "updated_by"
    }

    public init(
        id: Int64, sku: String, title: String, description: String, category: String, price: Money, stock: Int,
        active: Bool, version: Int64, image: String, updatedAt: String?, updatedBy: String?
    ) {
        self.id = id
        self.sku = sku
        self.title = title
        self.description = description
        self.category = category
        self.price = price
        self.stock = stock
        self.active = active
        self.version = version
        self.image = image
        self.updatedAt = updatedAt
        self.updatedBy = updatedBy
    }
}

/// One page of `GET /api/admin/products`: the products by id, and how many match in all.
public struct AdminProductList: Codable, Hashable, Sendable {
    public var products: [AdminProductBody]
    public var total: Int
    public var offset: Int
    public var limit: Int

    public init(products: [AdminProductBody], total: Int, offset: Int, limit: Int) {
        self.products = products
        self.total = total
        self.offset = offset
        self.limit = limit
    }
}

/// `POST /api/admin/products`: a new product (its stock starts at zero; `active` defaults to true).
public struct NewProductRequest: Codable, Hashable, Sendable {
    public var sku: String
    public var title: String
    public var description: String
    public var category: String
    public var price: Money
    public var active: Bool?

    public init(sku: String, title: String, description: String, category: String, price: Money, active: Bool? = nil) {
        self.sku = sku
        self.title = title
        self.description = description
        self.category = category
        self.price = price
        self.active = active
    }
}

/// `PATCH /api/admin/products/{id}`: the version the edit started from and the fields to change
/// (the others stay as they are).
public struct ProductChangeRequest: Codable, Hashable, Sendable {
    public var version: Int64
    public var sku: String?
    public var title: String?
    public var description: String?
    public var category: String?
    public var price: Money?
    public var active: Bool?

    public init(
        version: Int64, sku: String? = nil, title: String? = nil, description: String? = nil,
        category: String? = nil, price: Money? = nil, active: Bool? = nil
    ) {
        self.version = version
        self.sku = sku
        self.title = title
        self.description = description
        self.category = category
        self.price = price
        self.active = active
    }
}

/// The answer to an edit that came second: 409 `edit_conflict`, with the product as it is now.
public struct EditConflictBody: Codable, Hashable, Sendable {
    public var error: ErrorBody.Detail
    public var current: AdminProductBody

    public init(error: ErrorBody.Detail, current: AdminProductBody) {
        self.error = error
        self.current = current
    }
}

/// `POST /api/admin/products/{id}/stock-adjustments`: a signed change of units and why.
public struct StockAdjustmentRequest: Codable, Hashable, Sendable {
    public var change: Int
    /// `received`, `counted`, `damaged`, `returned` or `other`.
    public var reason: String
    public var note: String?

    public init(change: Int, reason: String, note: String? = nil) {
        self.change = change
        self.reason = reason
        self.note = note
    }
}

/// One line of a product's stock ledger.
public struct StockMovementBody: Codable, Hashable, Sendable {
    public var id: Int64
    public var change: Int
    /// A staff reason, or `sale` / `sale_released`, which the store writes itself.
    public var reason: String
    public var note: String?
    /// A member of staff's email, `shop` for a sale, `command line`, `demo data`.
    public var actor: String
    /// The order a sale became, once paid.
    public var orderID: String?
    public var stockAfter: Int
    /// An ISO 8601 timestamp.
    public var at: String

    private enum CodingKeys: String, CodingKey {
        case id, change, reason, note, actor, at
        case orderID = "order_id"
        case stockAfter = "stock_after"
    }

    public init(
        id: Int64, change: Int, reason: String, note: String?, actor: String, orderID: String?, stockAfter: Int,
        at: String
    ) {
        self.id = id
        self.change = change
        self.reason = reason
        self.note = note
        self.actor = actor
        self.orderID = orderID
        self.stockAfter = stockAfter
        self.at = at
    }
}

/// The answer to a stock adjustment (201): the stock now, and the ledger line written.
public struct StockAdjustmentBody: Codable, Hashable, Sendable {
    public var stock: Int
    public var movement: StockMovementBody

    public init(stock: Int, movement: StockMovementBody) {
        self.stock = stock
        self.movement = movement
    }
}
