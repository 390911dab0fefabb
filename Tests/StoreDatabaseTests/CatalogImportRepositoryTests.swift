import CheckoutKit
import Foundation
import StoreDatabase
import StoreSQL
import StoreTestSupport
import Testing

/// The catalog import's storage (docs/BEHAVIOUR.md §13.14): kept uploads, imported once and removed
/// after their time; an import that may not count stock refused whole.
@Suite("Catalog import repository") struct CatalogImportRepositoryTests {
    static func product(_ sku: String, stock: Int, line: Int = 2) -> ImportedProduct {
        ImportedProduct(
            line: line,
            details: ProductDetails(
                sku: sku, title: "Gaiters", description: "", category: "trail gear", price: eur(19_90), active: true),
            stock: stock)
    }

    @Test("an upload is kept byte for byte, imported once, and removed by housekeeping", arguments: Backend.allCases)
    func uploads(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let repository = database.catalogImport
            let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("sku\r\n".utf8) + [0x00, 0xFF]
            let id = try await repository.saveUpload(bytes, sha256: "abc", by: nil, now: testNow)
            #expect(CatalogUploadID(parsing: id.rawValue) == id)
            let kept = try #require(try await repository.upload(id))
            #expect(kept.bytes == bytes)
            #expect(kept.appliedAt == nil)
            #expect(kept.createdAt == testNow)

            let result = try await repository.apply(
                [Self.product("GAITER-1", stock: 4)], upload: id, sha256: "abc", by: .commandLine, now: testNow)
            #expect(result.plan.creations.count == 1)
            #expect(result.stockAdjustments == 1)
            #expect(try await repository.upload(id)?.appliedAt == testNow)
            await #expect(throws: CatalogImportError.alreadyApplied) {
                _ = try await repository.apply(
                    [Self.product("GAITER-2", stock: 4)], upload: id, sha256: "abc", by: .commandLine, now: testNow)
            }
            #expect(try await repository.entries()["GAITER-2"] == nil)

            #expect(try await repository.removeUploads(before: testNow) == 0)
            #expect(try await repository.removeUploads(before: testNow.addingTimeInterval(1)) == 1)
            #expect(try await repository.upload(id) == nil)
        }
    }

    @Test("whoever may not adjust stock cannot import a file that changes stock", arguments: Backend.allCases)
    func stockNeedsItsPermission(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let repository = database.catalogImport
            await #expect(throws: CatalogImportError.stockChangeNotAllowed) {
                _ = try await repository.apply(
                    [Self.product("GAITER-1", stock: 4)], upload: nil, sha256: "", by: .commandLine,
                    mayCountStock: false, now: testNow)
            }
            #expect(try await repository.entries()["GAITER-1"] == nil)
            let noStock = try await repository.apply(
                [Self.product("GAITER-1", stock: 0)], upload: nil, sha256: "", by: .commandLine, mayCountStock: false,
                now: testNow)
            #expect(noStock.plan.creations.count == 1)
            #expect(noStock.stockAdjustments == 0)
        }
    }

    @Test(
        "counts move the stock through the ledger by the difference, in batches, and the stock stays its sum",
        arguments: Backend.allCases)
    func counts(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let repository = database.catalogImport
            let products = (0..<1_203).map { Self.product("BATCH-\($0)", stock: $0 % 3, line: $0 + 2) }
            let created = try await repository.apply(
                products, upload: nil, sha256: "", by: .commandLine, now: testNow)
            #expect(created.stockAdjustments == 802)
            let recounted = products.map { Self.product($0.details.sku, stock: 7, line: $0.line) }
            let counted = try await repository.apply(
                recounted, upload: nil, sha256: "", by: .commandLine, now: testNow)
            #expect(counted.plan.updates.count == 1_203)
            #expect(counted.stockAdjustments == 1_203)
            let sums = try await database.sql.read { connection in
                try connection.query(
                    """
                    SELECT p.stock, CAST(COALESCE(SUM(m.change_units), 0) AS BIGINT) AS ledger, COUNT(m.id) AS lines
                    FROM products p LEFT JOIN stock_movements m ON m.product_id = p.id
                    WHERE p.sku LIKE 'BATCH-%' GROUP BY p.id, p.stock
                    """
                ).map {
                    (
                        try $0.decode("stock", as: Int.self), try $0.decode("ledger", as: Int.self),
                        try $0.decode("lines", as: Int.self)
                    )
                }
            }
            #expect(sums.count == 1_203)
            #expect(sums.allSatisfy { $0.0 == 7 && $0.1 == 7 })
            // A product created with stock has two lines (its count in, then the recount); one
            // created with none has one.
            #expect(sums.filter { $0.2 == 2 }.count == 802)
            let audit = try await database.audit.entries(limit: 5_000)
            #expect(audit.filter { $0.action == "stock.adjusted" }.count == 802 + 1_203)
            #expect(audit.filter { $0.action == "product.created" }.count == 1_203)
            #expect(audit.filter { $0.action == "catalog.imported" }.count == 2)
        }
    }
}
