import CheckoutKit
import Foundation
import StoreSQL

/// A product as the back office manages it: archived ones too, with what the shop never shows —
/// its SKU, its version (for edits) and who changed it last.
public struct ManagedProduct: Hashable, Sendable, Identifiable {
    public let id: ProductID
    public let details: ProductDetails
    /// The image's path on this store's server.
    public let imagePath: String
    public let rating: Rating
    public let stock: Int
    /// Counts the edits of the details (not stock, which the ledger keeps): an edit names the
    /// version it started from and is refused when another came first.
    public let version: Int64
    /// The last edit: when and by whom (`nil` for a product no one has edited since it was added
    /// by the demo data or before the back office existed).
    public let updatedAt: Date?
    public let updatedBy: String?

    /// The product as the shop would show it (its stock as it is, even when archived).
    public var product: Product {
        Product(
            id: id, title: details.title, description: details.description, category: details.category,
            price: details.price, imagePath: imagePath, rating: rating, stock: stock)
    }
}

/// One page of the back office's product list.
public struct ManagedProductPage: Hashable, Sendable {
    public let products: [ManagedProduct]
    /// How many products match, over every page.
    public let total: Int
}

/// Why a product could not be added or changed as asked; nothing was written.
public enum ProductChangeError: Error, Hashable, Sendable {
    /// There is no product with that id.
    case notFound
    /// Another product has the SKU.
    case skuTaken(by: ProductID, title: String)
    /// The product was changed since the edit began (its version is not the one the edit named):
    /// here it is as it is now.
    case editConflict(current: ManagedProduct)
    /// The adjustment would take the stock below zero; it has `available` units.
    case insufficientStock(available: Int)
    /// The adjustment's key was used before for a different change or reason.
    case keyReused
}

/// Products as the back office adds and changes them, their stock ledger, and their images. Every
/// change writes its audit line (docs/BEHAVIOUR.md §13.4) in its own transaction, and a change of
/// the catalog bumps nothing the shop caches: the caller refreshes the catalog after it.
public struct ProductRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    static let columns: SQLQuery = """
        p.id, p.sku, p.title, p.description, p.category, p.price_minor, p.currency, p.image_path, p.rating_tenths, \
        p.rating_count, p.stock, p.active, p.version, p.updated_at, p.updated_by
        """

    /// Products by id, archived too, whose title, SKU or category contains `search` (any case),
    /// `limit` of them from `offset`.
    public func list(search: String?, offset: Int, limit: Int) async throws -> ManagedProductPage {
        let search = search?.trimmingCharacters(in: .whitespaces) ?? ""
        return try await database.read { connection in
            let filter: SQLQuery
            if search.isEmpty {
                filter = ""
            } else if connection.dialect == .sqlite {
                // SQLite's LIKE ignores case already (for ASCII, as its LOWER does without ICU):
                // LOWER on every row was more than half of a search's time, and changed nothing.
                let pattern = "%" + Self.likeEscaped(search.lowercased()) + "%"
                filter = """
                    WHERE p.title LIKE \(pattern) ESCAPE '\\' OR p.sku LIKE \(pattern) ESCAPE '\\'
                       OR p.category LIKE \(pattern) ESCAPE '\\'
                    """
            } else {
                let pattern = "%" + Self.likeEscaped(search.lowercased()) + "%"
                filter = """
                    WHERE LOWER(p.title) LIKE \(pattern) ESCAPE '\\' OR LOWER(p.sku) LIKE \(pattern) ESCAPE '\\'
                       OR LOWER(p.category) LIKE \(pattern) ESCAPE '\\'
                    """
            }
            // The count and the page at one moment (one round trip on PostgreSQL).
            let answers = try connection.queryTogether([
                "SELECT COUNT(*) AS n FROM products p \(filter)",
                "SELECT \(Self.columns) FROM products p \(filter) ORDER BY p.id LIMIT \(limit) OFFSET \(offset)",
            ])
            return ManagedProductPage(
                products: try answers[1].map(Self.read), total: try answers[0].first?.decode("n", as: Int.self) ?? 0)
        }
    }

    /// The product `id`, archived or not.
    public func product(_ id: ProductID) async throws -> ManagedProduct? {
        try await database.lookup { connection in try Self.product(id, on: connection) }
    }

    /// The product with `sku`, archived or not.
    public func product(sku: String) async throws -> ManagedProduct? {
        try await database.lookup { connection in
            try connection.queryFirst("SELECT \(Self.columns) FROM products p WHERE p.sku = \(sku)").map(Self.read)
        }
    }

    /// Every category name, in the shop's order, with or without products.
    public func categories() async throws -> [String] {
        try await database.read { connection in
            try connection.query("SELECT name FROM categories ORDER BY position, name").map {
                try $0.decode("name", as: String.self)
            }
        }
    }

    /// Active products with at most `threshold` units, fewest first.
    public func lowStock(threshold: Int, limit: Int) async throws -> [ManagedProduct] {
        try await database.read { connection in
            try connection.query(
                """
                SELECT \(Self.columns) FROM products p WHERE p.active = 1 AND p.stock <= \(threshold)
                ORDER BY p.stock, p.title, p.id LIMIT \(limit)
                """
            ).map(Self.read)
        }
    }

    /// Adds a product with no stock (stock comes only through the ledger) and the placeholder
    /// image; its category is added when new.
    ///
    /// - Throws: ``ProductChangeError/skuTaken(by:title:)``.
    public func create(_ details: ProductDetails, by actor: AuditActor, now: Date) async throws -> ManagedProduct {
        try await database.write { connection in
            try Self.create(details, by: actor, now: now, on: connection)
        }
    }

    /// Changes the details of product `id` from `expectedVersion`.
    ///
    /// - Throws: ``ProductChangeError/notFound``, ``ProductChangeError/editConflict(current:)`` when
    ///   the product is no longer at `expectedVersion`, ``ProductChangeError/skuTaken(by:title:)``.
    public func update(
        _ id: ProductID, from expectedVersion: Int64, to details: ProductDetails, by actor: AuditActor, now: Date
    ) async throws -> ManagedProduct {
        try await database.write { connection in
            try Self.update(id, from: expectedVersion, to: details, by: actor, now: now, on: connection)
        }
    }

    /// Applies a member of staff's stock adjustment: one ledger line and one audit line, or
    /// nothing at all.
    ///
    /// - Throws: ``ProductChangeError/notFound``, ``ProductChangeError/insufficientStock(available:)``.
    public func adjustStock(
        _ id: ProductID, _ adjustment: StockAdjustment, key: IdempotencyKey? = nil, by actor: AuditActor, now: Date
    ) async throws -> (product: ManagedProduct, movement: StockMovement) {
        try await database.write { connection in
            try Self.adjustStock(id, adjustment, key: key, by: actor, now: now, on: connection)
        }
    }

    /// The newest lines of product `id`'s stock ledger first.
    public func movements(of id: ProductID, before: Int64? = nil, limit: Int = 50) async throws -> [StockMovement] {
        try await database.read { connection in
            try StockLedger.movements(of: id, before: before, limit: limit, on: connection)
        }
    }

    // MARK: Building blocks for transactions

    static func product(_ id: ProductID, on connection: any SQLConnection) throws -> ManagedProduct? {
        try connection.queryFirst("SELECT \(columns) FROM products p WHERE p.id = \(id.rawValue)").map(read)
    }

    static func create(
        _ details: ProductDetails, by actor: AuditActor, now: Date, on connection: any SQLConnection
    ) throws -> ManagedProduct {
        try checkSKU(details.sku, isFreeFor: nil, on: connection)
        try ensureCategory(details.category, on: connection)
        guard
            let row = try connection.queryFirst(
                """
                INSERT INTO products (sku, title, description, category, price_minor, currency, image_path,
                                      rating_tenths, rating_count, stock, active, version, updated_at, updated_by)
                VALUES (\(details.sku), \(details.title), \(details.description), \(details.category),
                        \(details.price.minorUnits), \(details.price.currency.code), \(placeholderImagePath), 0, 0, 0,
                        \(details.active), 1, \(now.unixMilliseconds), \(actor.name))
                RETURNING id
                """)
        else { throw DatabaseError(kind: .other, code: "insert", message: "the new product's id was not returned") }
        let id = ProductID(try row.decode("id", as: Int64.self))
        guard let created = try product(id, on: connection) else { throw ProductChangeError.notFound }
        try AuditRepository.record(
            .productCreated, subject: "product:\(id)", by: actor, after: AuditValues.product(details), at: now,
            on: connection)
        return created
    }

    static func update(
        _ id: ProductID, from expectedVersion: Int64, to details: ProductDetails, by actor: AuditActor, now: Date,
        on connection: any SQLConnection
    ) throws -> ManagedProduct {
        // On PostgreSQL the row is locked, so two saves of one product queue here and the second
        // sees the first's version; SQLite has one writer.
        let lock: SQLQuery = connection.dialect == .postgres ? " FOR UPDATE" : ""
        guard
            let current = try connection.queryFirst(
                "SELECT \(columns) FROM products p WHERE p.id = \(id.rawValue)\(lock)"
            ).map(read)
        else { throw ProductChangeError.notFound }
        guard current.version == expectedVersion else { throw ProductChangeError.editConflict(current: current) }
        guard current.details != details else { return current }
        try checkSKU(details.sku, isFreeFor: id, on: connection)
        try ensureCategory(details.category, on: connection)
        try connection.execute(
            """
            UPDATE products
            SET sku = \(details.sku), title = \(details.title), description = \(details.description),
                category = \(details.category), price_minor = \(details.price.minorUnits),
                currency = \(details.price.currency.code), active = \(details.active), version = version + 1,
                updated_at = \(now.unixMilliseconds), updated_by = \(actor.name)
            WHERE id = \(id.rawValue) AND version = \(expectedVersion)
            """)
        guard let updated = try product(id, on: connection) else { throw ProductChangeError.notFound }
        let (before, after) = AuditValues.changes(from: current.details, to: details)
        try AuditRepository.record(
            .productChanged, subject: "product:\(id)", by: actor, before: before, after: after, at: now,
            on: connection)
        return updated
    }

    ///
    /// With a `key`, the adjustment is made once: sent again with the same key (a form submitted
    /// twice, a retried request) it changes nothing and returns the line it wrote the first time;
    /// the same key with another change or reason is refused (``ProductChangeError/keyReused``).
    static func adjustStock(
        _ id: ProductID, _ adjustment: StockAdjustment, key: IdempotencyKey? = nil, by actor: AuditActor, now: Date,
        on connection: any SQLConnection
    ) throws -> (product: ManagedProduct, movement: StockMovement) {
        if let key {
            // Two requests with one key queue on the product's row (PostgreSQL) or the one writer
            // (SQLite), so the second finds the first's line.
            let lock: SQLQuery = connection.dialect == .postgres ? " FOR UPDATE" : ""
            guard try connection.queryFirst("SELECT id FROM products WHERE id = \(id.rawValue)\(lock)") != nil else {
                throw ProductChangeError.notFound
            }
            if let earlier = try StockLedger.movement(of: id, requestKey: key, on: connection) {
                guard earlier.change == adjustment.change, earlier.reason == adjustment.reason else {
                    throw ProductChangeError.keyReused
                }
                guard let product = try product(id, on: connection) else { throw ProductChangeError.notFound }
                return (product, earlier)
            }
        }
        guard
            let stock = try StockLedger.move(
                id, by: adjustment.change, reason: adjustment.reason, note: adjustment.note, actor: .person(actor),
                requestKey: key, onlyIfActive: false, now: now, on: connection)
        else {
            guard let current = try product(id, on: connection) else { throw ProductChangeError.notFound }
            throw ProductChangeError.insufficientStock(available: current.stock)
        }
        guard let product = try product(id, on: connection),
            let movement = try StockLedger.movements(of: id, before: nil, limit: 1, on: connection).first
        else { throw ProductChangeError.notFound }
        try AuditRepository.record(
            .stockAdjusted, subject: "product:\(id)", by: actor,
            before: AuditValues.object(["stock": String(stock - adjustment.change)]),
            after: AuditValues.object(
                [
                    "stock": String(stock), "change": String(adjustment.change), "reason": adjustment.reason.rawValue,
                    "note": adjustment.note,
                ].compactMapValues { $0 }),
            at: now, on: connection)
        return (product, movement)
    }

    /// Refuses `sku` when another product than `owner` has it.
    static func checkSKU(_ sku: String, isFreeFor owner: ProductID?, on connection: any SQLConnection) throws {
        guard
            let row = try connection.queryFirst("SELECT id, title FROM products WHERE sku = \(sku)"),
            ProductID(try row.decode("id", as: Int64.self)) != owner
        else { return }
        throw ProductChangeError.skuTaken(
            by: ProductID(try row.decode("id", as: Int64.self)), title: try row.decode("title"))
    }

    /// Adds `category` after the others when it is new. (`WHERE true` keeps SQLite from reading
    /// the upsert's `ON` as a join's.)
    static func ensureCategory(_ category: String, on connection: any SQLConnection) throws {
        try connection.execute(
            """
            INSERT INTO categories (name, position)
            SELECT \(category), COALESCE(MAX(position), -1) + 1 FROM categories WHERE true
            ON CONFLICT (name) DO NOTHING
            """)
    }

    /// The image a product shows until one is uploaded.
    public static let placeholderImagePath = "/images/placeholder.svg"

    static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    static func read(_ row: SQLRow) throws -> ManagedProduct {
        guard let rating = Rating(tenths: try row.decode("rating_tenths"), count: try row.decode("rating_count"))
        else { throw DatabaseError.decoding(column: "rating_tenths", expected: "a rating between 0 and 5") }
        let updatedAt = try row.decode("updated_at", as: Int64.self)
        return ManagedProduct(
            id: ProductID(try row.decode("id", as: Int64.self)),
            details: ProductDetails(
                sku: try row.decode("sku"), title: try row.decode("title"), description: try row.decode("description"),
                category: try row.decode("category"), price: try row.money("price_minor"),
                active: try row.decode("active", as: Int64.self) == 1),
            imagePath: try row.decode("image_path"), rating: rating, stock: try row.decode("stock"),
            version: try row.decode("version"),
            updatedAt: updatedAt == 0 ? nil : Date(unixMilliseconds: updatedAt), updatedBy: try row.decode("updated_by")
        )
    }
}

/// The values an audit line keeps before and after a change: small JSON objects, keys sorted.
enum AuditValues {
    static func object(_ values: [String: String]) -> String? {
        guard !values.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(values) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func fields(_ details: ProductDetails) -> [String: String] {
        [
            "sku": details.sku, "title": details.title, "description": details.description,
            "category": details.category, "price": "\(details.price.amountText) \(details.price.currency.code)",
            "active": details.active ? "true" : "false",
        ]
    }

    static func product(_ details: ProductDetails) -> String? {
        object(fields(details))
    }

    /// The fields that differ, as they were and as they are.
    static func changes(from old: ProductDetails, to new: ProductDetails) -> (before: String?, after: String?) {
        let before = fields(old)
        let after = fields(new)
        let changed = before.keys.filter { before[$0] != after[$0] }
        return (
            object(before.filter { changed.contains($0.key) }), object(after.filter { changed.contains($0.key) })
        )
    }
}
