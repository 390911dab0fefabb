import CatalogFiles
import CheckoutKit
import Foundation
import StoreCrypto
import StoreDatabase

/// A catalog file read and compared with the catalog: what importing it would do, and every
/// problem it has. A file with a problem is never imported.
package struct CatalogImportPreview: Hashable, Sendable {
    /// The kept upload to import, when the file may be imported and was kept (the back office's
    /// preview); `nil` for a file with problems, and for a dry run.
    package let upload: CatalogUploadID?
    /// What the file's good rows would do (beside the problems, for a file that has some).
    package let plan: CatalogImportPlan
    /// Every problem, by line, in the file's order (at most 100, then one that counts the rest).
    package let problems: [CatalogFileProblem]
    /// How many products the file has that were read without a problem.
    package let rows: Int

    /// Whether the file may be imported.
    package var canApply: Bool { problems.isEmpty }
}

/// What an import did.
package struct CatalogImportSummary: Hashable, Sendable {
    package let created: Int
    package let changed: Int
    package let unchanged: Int
    /// Ledger lines written with reason `counted`.
    package let stockAdjustments: Int
    /// The plan carried out, product by product.
    package let plan: CatalogImportPlan
}

/// A catalog file that cannot be imported: every problem, by line. Nothing was written.
package struct CatalogFileError: Error, Hashable, Sendable {
    package let problems: [CatalogFileProblem]
}

/// The catalog's CSV import and export (docs/BEHAVIOUR.md §13.14), for the back office's JSON API,
/// its pages and the `store catalog` command alike.
///
/// An import is two steps across two requests, which two servers may answer: ``preview(_:by:)``
/// reads the file, compares it with the catalog and keeps the file when it has no problem;
/// ``apply(upload:by:)`` reads the kept bytes again, checks them again and imports them against
/// the catalog as it is then — all of it in one transaction, or nothing. This server's catalog
/// snapshot is read again after an import, as after any change of the catalog.
package struct CatalogImport: Sendable {
    package let database: StoreDatabase
    /// The shop's catalog snapshot to refresh after an import (`nil` outside a server).
    package let catalog: Catalog?
    /// The shop's currency: the file's prices are in it.
    package let currency: Currency
    package let clock: StoreClock

    package init(database: StoreDatabase, catalog: Catalog?, currency: Currency, clock: StoreClock) {
        self.database = database
        self.catalog = catalog
        self.currency = currency
        self.clock = clock
    }

    /// How long a kept upload may be imported after its preview; housekeeping removes it after.
    package static let uploadLifetime: TimeInterval = 60 * 60

    /// Reads `bytes` and compares them with the catalog; keeps the file for ``apply(upload:by:)``
    /// when it has no problem. Changes nothing in the catalog.
    package func preview(_ bytes: [UInt8], by staff: StaffRecord) async throws -> CatalogImportPreview {
        let checked = try await check(bytes)
        guard checked.canApply else { return checked }
        let upload = try await database.catalogImport.saveUpload(
            bytes, sha256: SHA256.hexDigest(bytes), by: staff.id, now: clock.now())
        return CatalogImportPreview(upload: upload, plan: checked.plan, problems: [], rows: checked.rows)
    }

    /// Reads `bytes` and compares them with the catalog, keeping nothing (a dry run).
    package func check(_ bytes: [UInt8]) async throws -> CatalogImportPreview {
        let (products, problems) = read(bytes)
        let plan = CatalogImportPlan(importing: products, into: try await database.catalogImport.entries())
        return CatalogImportPreview(upload: nil, plan: plan, problems: problems, rows: products.count)
    }

    /// Imports the file kept by the preview `upload`, which `staff` made, checked again against
    /// the catalog as it is now.
    ///
    /// - Throws: ``CatalogFileError`` (nothing written), ``StoreDatabase/CatalogImportError``:
    ///   `uploadNotFound` (not `staff`'s, expired or never made), `alreadyApplied`, `catalogChanged`,
    ///   `stockChangeNotAllowed` when the file changes stock and `staff` may not adjust it.
    package func apply(upload id: CatalogUploadID, by staff: StaffRecord) async throws -> CatalogImportSummary {
        guard let upload = try await database.catalogImport.upload(id), upload.staffID == staff.id,
            upload.createdAt.addingTimeInterval(Self.uploadLifetime) > clock.now()
        else { throw CatalogImportError.uploadNotFound }
        guard upload.appliedAt == nil else { throw CatalogImportError.alreadyApplied }
        return try await apply(
            upload.bytes, upload: id, by: staff.actor, mayCountStock: staff.role.may(.adjustStock))
    }

    /// Imports `bytes` straight away (the command line's `store catalog import`), as `actor`.
    ///
    /// - Throws: ``CatalogFileError`` (nothing written), ``StoreDatabase/CatalogImportError/catalogChanged``.
    package func apply(_ bytes: [UInt8], by actor: AuditActor) async throws -> CatalogImportSummary {
        try await apply(bytes, upload: nil, by: actor, mayCountStock: true)
    }

    /// Every product, archived too, as a catalog file that imports back to no change at all;
    /// how many products it holds.
    package func export() async throws -> (bytes: [UInt8], products: Int) {
        let products = try await database.catalogImport.allProducts()
        let rows = products.map { product in
            CatalogRow(
                sku: product.details.sku, title: product.details.title, description: product.details.description,
                category: product.details.category, price: product.details.price, stock: product.stock,
                active: product.details.active)
        }
        return (CatalogCSV.write(rows), rows.count)
    }

    private func apply(
        _ bytes: [UInt8], upload: CatalogUploadID?, by actor: AuditActor, mayCountStock: Bool
    ) async throws -> CatalogImportSummary {
        let (products, problems) = read(bytes)
        guard problems.isEmpty else { throw CatalogFileError(problems: problems) }
        let result = try await database.catalogImport.apply(
            products, upload: upload, sha256: SHA256.hexDigest(bytes), by: actor, mayCountStock: mayCountStock,
            now: clock.now())
        // The import is committed either way: a failed read is retried by the periodic refresh.
        if !result.plan.isEmpty { try? await catalog?.refresh() }
        return CatalogImportSummary(
            created: result.plan.creations.count, changed: result.plan.updates.count,
            unchanged: result.plan.unchanged, stockAdjustments: result.stockAdjustments, plan: result.plan)
    }

    /// The file's products as the product rules have them, and its problems.
    private func read(_ bytes: [UInt8]) -> (products: [ImportedProduct], problems: [CatalogFileProblem]) {
        let reading = CatalogCSV.read(bytes, currency: currency)
        let products = reading.rows.map { numbered in
            let row = numbered.row
            return ImportedProduct(
                line: numbered.line,
                details: ProductDetails(
                    sku: row.sku, title: row.title, description: row.description, category: row.category,
                    price: row.price, active: row.active),
                stock: row.stock)
        }
        return (products, reading.problems)
    }
}
