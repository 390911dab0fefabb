import CheckoutKit
import Foundation
import StoreSQL

/// A catalog file kept between its preview and its import: opaque random text (`upl_` and 26
/// base-32 characters), known only to whoever uploaded the file.
public struct CatalogUploadID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The id a client sent, when it is one this store could have made.
    public init?(parsing text: String) {
        guard OpaqueIdentifier.isWellFormed(text, prefix: "upl_") else { return nil }
        rawValue = text
    }

    /// A fresh identifier from the system's secure random source.
    public static func random() -> CatalogUploadID {
        CatalogUploadID(rawValue: OpaqueIdentifier.make(prefix: "upl_"))
    }

    public var description: String { rawValue }
}

/// A catalog file as it was uploaded, with who uploaded it and when.
public struct CatalogUpload: Hashable, Sendable {
    public let id: CatalogUploadID
    /// The member of staff who uploaded it.
    public let staffID: StaffID?
    public let bytes: [UInt8]
    /// The SHA-256 of the bytes, in hexadecimal.
    public let sha256: String
    public let createdAt: Date
    /// When it was imported; a file is imported at most once.
    public let appliedAt: Date?
}

/// Why an import was refused; nothing was written.
public enum CatalogImportError: Error, Hashable, Sendable {
    /// No kept upload has that id (never made, another member of staff's, or expired).
    case uploadNotFound
    /// The upload was imported already.
    case alreadyApplied
    /// A product of the file was changed by someone else while the import ran (another edit came
    /// first, or another import or form added its SKU): import the file again.
    case catalogChanged
    /// The file changes stock and whoever imports it may not adjust stock.
    case stockChangeNotAllowed
}

/// What an import did: its plan as carried out against the catalog as it was in the import's
/// transaction, and how many stock adjustments it wrote.
public struct CatalogImportResult: Hashable, Sendable {
    public let plan: CatalogImportPlan
    /// Ledger lines written with reason `counted`: one per product whose stock the file changed
    /// (new products with stock included).
    public let stockAdjustments: Int
}

/// The catalog's CSV import and export (docs/BEHAVIOUR.md §13.14): the uploads kept between a
/// preview and its import, the catalog as an import compares it, and the import itself — every
/// product it adds or changes, every stock it counts and one summary line of the audit log, in
/// one transaction, or nothing.
public struct CatalogImportRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// The note on the ledger lines an import writes.
    public static let stockNote = "Catalog import"

    // MARK: Uploads

    /// Keeps an uploaded file for its import; its id.
    public func saveUpload(
        _ bytes: [UInt8], sha256: String, by staff: StaffID?, now: Date
    ) async throws -> CatalogUploadID {
        let id = CatalogUploadID.random()
        try await database.write { connection in
            try connection.execute(
                """
                INSERT INTO catalog_uploads (id, staff_id, bytes, size, sha256, created_at)
                VALUES (\(id.rawValue), \(staff?.rawValue), \(bytes), \(bytes.count), \(sha256),
                        \(now.unixMilliseconds))
                """)
        }
        return id
    }

    /// The kept upload `id`, imported or not.
    public func upload(_ id: CatalogUploadID) async throws -> CatalogUpload? {
        try await database.read { connection in
            guard
                let row = try connection.queryFirst(
                    """
                    SELECT id, staff_id, bytes, sha256, created_at, applied_at FROM catalog_uploads
                    WHERE id = \(id.rawValue)
                    """)
            else { return nil }
            return CatalogUpload(
                id: CatalogUploadID(rawValue: try row.decode("id")),
                staffID: try row.decode("staff_id", as: Int64?.self).map(StaffID.init(rawValue:)),
                bytes: try row.decode("bytes"), sha256: try row.decode("sha256"), createdAt: try row.date("created_at"),
                appliedAt: try row.decode("applied_at", as: Int64?.self).map(Date.init(unixMilliseconds:)))
        }
    }

    /// Removes the uploads made before `cutoff`, imported or not; how many.
    @discardableResult
    public func removeUploads(before cutoff: Date) async throws -> Int {
        try await database.write { connection in
            try connection.execute("DELETE FROM catalog_uploads WHERE created_at < \(cutoff.unixMilliseconds)")
        }
    }

    // MARK: The catalog

    /// Every product, archived too, by SKU: what a file is compared with.
    public func entries() async throws -> [String: CatalogEntry] {
        try await database.read { connection in try Self.entries(on: connection) }
    }

    /// Every product, archived too, by id: what an export writes.
    public func allProducts() async throws -> [ManagedProduct] {
        try await database.read { connection in
            try connection.query("SELECT \(ProductRepository.columns) FROM products p ORDER BY p.id").map(
                ProductRepository.read)
        }
    }

    // MARK: The import

    /// Imports `products` (checked, SKUs distinct) into the catalog as it is now, all or nothing,
    /// in one transaction: plans against the catalog read in it, adds and changes the products
    /// (a new version and a `product.created` / `product.changed` audit line each), counts each
    /// stock the file changes through the ledger (reason `counted`, a `stock.adjusted` audit line),
    /// and writes one `catalog.imported` audit line with the counts and the file's SHA-256.
    ///
    /// - Parameters:
    ///   - upload: the kept upload being imported, marked imported in the same transaction (`nil`
    ///     for a file imported straight from the command line).
    ///   - mayCountStock: whether `actor` may adjust stock; when not, a file that changes a stock
    ///     is refused whole.
    /// - Throws: ``CatalogImportError/alreadyApplied`` when `upload` was imported already,
    ///   ``CatalogImportError/catalogChanged`` when another change of the same products came first,
    ///   ``CatalogImportError/stockChangeNotAllowed``.
    public func apply(
        _ products: [ImportedProduct], upload: CatalogUploadID?, sha256: String, by actor: AuditActor,
        mayCountStock: Bool = true, now: Date
    ) async throws -> CatalogImportResult {
        do {
            return try await database.write { connection in
                if let upload {
                    let marked = try connection.execute(
                        """
                        UPDATE catalog_uploads SET applied_at = \(now.unixMilliseconds)
                        WHERE id = \(upload.rawValue) AND applied_at IS NULL
                        """)
                    guard marked == 1 else { throw CatalogImportError.alreadyApplied }
                }
                let plan = CatalogImportPlan(importing: products, into: try Self.entries(on: connection))
                guard mayCountStock || !plan.changesStock else { throw CatalogImportError.stockChangeNotAllowed }
                let adjustments = try Self.carryOut(plan, by: actor, now: now, on: connection)
                try AuditRepository.record(
                    .catalogImported, subject: upload.map { "catalog_upload:\($0)" } ?? "catalog", by: actor,
                    after: AuditValues.object([
                        "created": String(plan.creations.count), "changed": String(plan.updates.count),
                        "unchanged": String(plan.unchanged), "stock_adjusted": String(adjustments),
                        "sha256": sha256,
                    ]),
                    at: now, on: connection)
                return CatalogImportResult(plan: plan, stockAdjustments: adjustments)
            }
        } catch let error as DatabaseError where error.kind == .uniqueViolation {
            // A product with one of the file's new SKUs was added after the import read the catalog.
            throw CatalogImportError.catalogChanged
        }
    }

    // MARK: Building blocks for the transaction

    static func entries(on connection: any SQLConnection) throws -> [String: CatalogEntry] {
        var entries: [String: CatalogEntry] = [:]
        for row in try connection.query("SELECT \(ProductRepository.columns) FROM products p") {
            let product = try ProductRepository.read(row)
            entries[product.details.sku] = CatalogEntry(
                id: product.id, details: product.details, stock: product.stock, version: product.version)
        }
        return entries
    }

    /// How many rows one statement of an import writes: a 10,000-product file is a few dozen
    /// statements, not tens of thousands of round trips (each well under either database's limit
    /// on bound values).
    static let batchSize = 500

    /// Writes `plan`; the number of stock adjustments written.
    static func carryOut(
        _ plan: CatalogImportPlan, by actor: AuditActor, now: Date, on connection: any SQLConnection
    ) throws -> Int {
        var categories: [String] = []
        var seen: Set<String> = []
        for category in plan.creations.map(\.details.category) + plan.updates.map(\.details.category)
        where seen.insert(category).inserted {
            categories.append(category)
        }
        for category in categories { try ProductRepository.ensureCategory(category, on: connection) }

        var audit: [AuditRepository.Line] = []
        var counts: [(id: ProductID, stock: Int)] = []
        for batch in plan.creations.batches(of: batchSize) {
            let ids = try create(batch.map(\.details), by: actor, now: now, on: connection)
            for (creation, id) in zip(batch, ids) {
                audit.append(
                    AuditRepository.Line(
                        action: .productCreated, subject: "product:\(id)", before: nil,
                        after: AuditValues.product(creation.details)))
                if creation.stock > 0 { counts.append((id, creation.stock)) }
            }
        }
        for update in plan.updates {
            if update.changesDetails {
                try change(update, by: actor, now: now, on: connection)
                let (before, after) = AuditValues.changes(from: update.previous, to: update.details)
                audit.append(
                    AuditRepository.Line(
                        action: .productChanged, subject: "product:\(update.id)", before: before, after: after))
            }
            if update.stock != update.stockBefore { counts.append((update.id, update.stock)) }
        }
        var adjustments = 0
        for batch in counts.batches(of: batchSize) {
            let moved = try count(batch, by: actor, now: now, on: connection)
            adjustments += moved.count
            audit += moved.map { stockLine($0) }
        }
        for batch in audit.batches(of: batchSize) {
            try AuditRepository.record(batch, by: actor, at: now, on: connection)
        }
        return adjustments
    }

    /// The `stock.adjusted` line of a count.
    static func stockLine(_ move: (id: ProductID, from: Int, to: Int)) -> AuditRepository.Line {
        let after: [String: String] = [
            "stock": String(move.to), "change": String(move.to - move.from), "reason": StockReason.counted.rawValue,
            "note": stockNote,
        ]
        return AuditRepository.Line(
            action: .stockAdjusted, subject: "product:\(move.id)",
            before: AuditValues.object(["stock": String(move.from)]), after: AuditValues.object(after))
    }

    /// Adds products with no stock and the placeholder image; their ids, in the same order.
    static func create(
        _ products: [ProductDetails], by actor: AuditActor, now: Date, on connection: any SQLConnection
    ) throws -> [ProductID] {
        let rows = products.map { details -> SQLQuery in
            """
            (\(details.sku), \(details.title), \(details.description), \(details.category),
             \(details.price.minorUnits), \(details.price.currency.code), \(ProductRepository.placeholderImagePath),
             0, 0, 0, \(details.active), 1, \(now.unixMilliseconds), \(actor.name))
            """
        }
        var ids: [String: ProductID] = [:]
        for row in try connection.query(
            """
            INSERT INTO products (sku, title, description, category, price_minor, currency, image_path,
                                  rating_tenths, rating_count, stock, active, version, updated_at, updated_by)
            VALUES \(SQLQuery.joined(rows, separator: ", "))
            RETURNING id, sku
            """)
        {
            ids[try row.decode("sku")] = ProductID(try row.decode("id", as: Int64.self))
        }
        return try products.map { details in
            guard let id = ids[details.sku] else {
                throw DatabaseError(kind: .other, code: "insert", message: "a new product's id was not returned")
            }
            return id
        }
    }

    /// Changes a product's details from the version the plan read.
    ///
    /// - Throws: ``CatalogImportError/catalogChanged`` when the product is no longer at that version.
    static func change(
        _ update: CatalogImportPlan.Update, by actor: AuditActor, now: Date, on connection: any SQLConnection
    ) throws {
        // On PostgreSQL a concurrent edit of the row is waited for, then the version compared
        // again; SQLite has one writer.
        let changed = try connection.execute(
            """
            UPDATE products
            SET title = \(update.details.title), description = \(update.details.description),
                category = \(update.details.category), price_minor = \(update.details.price.minorUnits),
                currency = \(update.details.price.currency.code), active = \(update.details.active),
                version = version + 1, updated_at = \(now.unixMilliseconds), updated_by = \(actor.name)
            WHERE id = \(update.id.rawValue) AND version = \(update.version)
            """)
        guard changed == 1 else { throw CatalogImportError.catalogChanged }
    }

    /// Counts each product's stock to its figure: reads the stocks as they are now (waiting, on
    /// PostgreSQL, for a sale that holds a row), moves each by the difference, and writes one ledger
    /// line per product moved, reason `counted` — nothing for a product already at its figure. The
    /// stock stays the sum of its ledger. What moved, from and to.
    ///
    /// - Throws: ``CatalogImportError/catalogChanged`` when a product is gone.
    static func count(
        _ targets: [(id: ProductID, stock: Int)], by actor: AuditActor, now: Date, on connection: any SQLConnection
    ) throws -> [(id: ProductID, from: Int, to: Int)] {
        let ids = SQLQuery.joined(targets.map { "\($0.id.rawValue)" }, separator: ", ")
        let lock: SQLQuery = connection.dialect == .postgres ? " FOR UPDATE" : ""
        var current: [ProductID: Int] = [:]
        for row in try connection.query("SELECT id, stock FROM products WHERE id IN (\(ids))\(lock)") {
            current[ProductID(try row.decode("id", as: Int64.self))] = try row.decode("stock", as: Int.self)
        }
        let moves = try targets.compactMap { target -> (id: ProductID, from: Int, to: Int)? in
            guard let stock = current[target.id] else { throw CatalogImportError.catalogChanged }
            return stock == target.stock ? nil : (target.id, stock, target.stock)
        }
        guard !moves.isEmpty else { return [] }
        let movedIDs = SQLQuery.joined(moves.map { "\($0.id.rawValue)" }, separator: ", ")
        let changes = SQLQuery.joined(
            moves.map { "WHEN \($0.id.rawValue) THEN CAST(\($0.to - $0.from) AS BIGINT)" }, separator: " ")
        // A count sets a figure of zero or more, from the stock read under the lock: the result
        // cannot go below zero (the table's CHECK would refuse the whole import if it did).
        try connection.execute("UPDATE products SET stock = stock + CASE id \(changes) END WHERE id IN (\(movedIDs))")
        let lines = moves.map { move -> SQLQuery in
            """
            (\(move.id.rawValue), \(move.to - move.from), \(StockReason.counted.rawValue), \(stockNote),
             \(actor.staffID?.rawValue), \(actor.name), \(move.to), \(now.unixMilliseconds))
            """
        }
        try connection.execute(
            """
            INSERT INTO stock_movements (product_id, change_units, reason, note, staff_id, actor, stock_after, at)
            VALUES \(SQLQuery.joined(lines, separator: ", "))
            """)
        return moves
    }

}

extension Array {
    /// The elements in consecutive slices of at most `size`, in order.
    fileprivate func batches(of size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
