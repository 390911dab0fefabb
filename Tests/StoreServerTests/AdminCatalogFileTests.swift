import CatalogFiles
import CheckoutKit
import Foundation
import StoreAPI
import StoreDatabase
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import TestWaiting
import Testing

@testable import StoreServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TestStore {
    /// Sends `bytes` as a catalog file to preview, as `token`.
    func importFile(_ bytes: [UInt8], token: String, contentType: String = "text/csv") async throws -> Reply {
        try await sendPatiently(
            "POST", AdminEndpoints.importCatalog.path(), token: token, body: Data(bytes),
            headers: ["Content-Type": contentType])
    }

    /// The preview of `bytes`, which must be answered 200.
    func preview(_ bytes: [UInt8], token: String) async throws -> CatalogImportPreviewBody {
        let reply = try await importFile(bytes, token: token)
        guard reply.status == 200 else { throw TestError("the preview answered \(reply.status): \(reply.text)") }
        return try reply.decode(CatalogImportPreviewBody.self)
    }

    /// Imports the previewed `upload` as `token`.
    func applyImport(_ upload: String, token: String) async throws -> Reply {
        try await sendPatiently("POST", AdminEndpoints.applyCatalogImport.path(upload), token: token)
    }

    /// The catalog as a file.
    func export(token: String) async throws -> [UInt8] {
        let reply = try await sendPatiently("GET", AdminEndpoints.exportCatalog.path(), token: token)
        guard reply.status == 200 else { throw TestError("the export answered \(reply.status): \(reply.text)") }
        return Array(reply.body)
    }

    /// A client that waits up to 5 minutes for an answer: a 10,000-product file is read, checked
    /// and written in a debug build on a busy machine.
    static let patientSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 300
        return URLSession(configuration: configuration)
    }()

    /// Sends a request as ``send(_:_:token:json:body:headers:)`` does, waiting longer for the answer.
    func sendPatiently(
        _ method: String, _ path: String, token: String, body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> Reply {
        guard let url = URL(string: path, relativeTo: base) else { throw TestError("bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await Self.patientSession.uncancelledData(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestError("not an HTTP response") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    /// Every product as the back office lists them (archived too).
    func adminProducts(token: String) async throws -> [AdminProductBody] {
        try await send("GET", "/api/admin/products?limit=200", token: token).decode(AdminProductList.self).products
    }

    func productCount() async throws -> Int {
        try await database.sql.read {
            try $0.queryFirst("SELECT COUNT(*) AS n FROM products")?.decode("n", as: Int.self) ?? -1
        }
    }

    func auditCount() async throws -> Int {
        try await database.sql.read {
            try $0.queryFirst("SELECT COUNT(*) AS n FROM audit_log")?.decode("n", as: Int.self) ?? -1
        }
    }

    /// Sends an image for product `id` as the raw body of `contentType`.
    func uploadImage(_ bytes: [UInt8], to id: Int64, contentType: String, token: String) async throws -> Reply {
        try await send(
            "POST", AdminEndpoints.uploadProductImage.path(String(id)), token: token, body: Data(bytes),
            headers: ["Content-Type": contentType])
    }

    /// Sends an image for product `id` as the field `field` of a form, with the file name and the
    /// part's type a browser would send.
    func uploadImageForm(
        _ bytes: [UInt8], to id: Int64, field: String = "image", filename: String, partType: String, token: String
    ) async throws -> Reply {
        let boundary = "----catalog-test-\(UUID().uuidString)"
        var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n".utf8)
        body += Array(
            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(filename)\"\r\n"
                + "Content-Type: \(partType)\r\n\r\n").utf8)
        body += bytes + Array("\r\n--\(boundary)--\r\n".utf8)
        return try await send(
            "POST", AdminEndpoints.uploadProductImage.path(String(id)), token: token, body: Data(body),
            headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"])
    }
}

/// The catalog as rows of its file, from the back office's list.
func catalogRows(_ products: [AdminProductBody]) -> [CatalogRow] {
    products.map {
        CatalogRow(
            sku: $0.sku, title: $0.title, description: $0.description, category: $0.category, price: $0.price,
            stock: $0.stock, active: $0.active)
    }
}

/// Images that are what they say: a 3×2 PNG and a 3×2 baseline JPEG (the CatalogFiles fixtures).
enum TestImages {
    static let png = Array(
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAEElEQVR4nGP4z8AAQQxwFgBB0gX7h/C5SAAAAABJRU5ErkJggg=="
        ) ?? Data())
    static let jpeg = Array(
        Data(
            base64Encoded:
                "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1x"
                + "eXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/"
                + "wAARCAACAAMDAREAAhEBAxEB/8QAFAABAAAAAAAAAAAAAAAAAAAABf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAVAQEBAAAAAAAAAAAA"
                + "AAAAAAAFBv/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/ABRa8f/Z") ?? Data())
}

/// The catalog's files through the back office's JSON API (docs/BEHAVIOUR.md §13.14–§13.15): a CSV
/// previewed, then imported all or nothing, exported so that importing it again changes nothing;
/// product images checked by their content, kept in the database and served back as they came.
@Suite("Back office: catalog import, export and images") struct AdminCatalogFileTests {
    static let header = "sku,title,description,category,price,stock,active\r\n"

    // MARK: Export and import

    @Test(
        "an export imported again changes nothing; a title with <script> and quotes travels as text",
        arguments: Backend.allCases)
    func exportImportsToNoChange(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            let title = #"<script>alert("x")</script>, the "best""#
            let created = try await store.createProduct(sku: "SCRIPT-1", title: title, category: "=cmd", token: owner)
            _ = try await store.adjustStock(created.id, by: 3, token: owner)
            let before = try await store.adminProducts(token: owner)

            let reply = try await store.send(AdminEndpoints.exportCatalog, token: owner)
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "text/csv; charset=utf-8")
            #expect(reply.header("Content-Disposition") == #"attachment; filename="catalog.csv""#)
            #expect(reply.header("Cache-Control") == "no-store")
            let exported = Array(reply.body)
            #expect(exported.starts(with: [0xEF, 0xBB, 0xBF]))
            let text = String(decoding: exported.dropFirst(3), as: UTF8.self)
            #expect(text.hasPrefix(Self.header))
            // The title is the file's text, quoted as CSV quotes it; the category that looks like a
            // formula is kept from spreadsheets by a leading '.
            #expect(text.contains(#"SCRIPT-1,"<script>alert(""x"")</script>, the ""best""","#))
            #expect(text.contains(",'=cmd,"))
            #expect(text.components(separatedBy: "\r\n").count == 21 + 2)

            let preview = try await store.preview(exported, token: owner)
            #expect(preview.new == [])
            #expect(preview.changed == [])
            #expect(preview.unchanged == 21)
            #expect(preview.problems == [])
            let upload = try #require(preview.upload)
            let applied = try await store.applyImport(upload, token: owner)
            #expect(applied.status == 200)
            #expect(
                try applied.decode(CatalogImportSummaryBody.self)
                    == CatalogImportSummaryBody(created: 0, changed: 0, unchanged: 21, stockAdjustments: 0))
            #expect(try await store.adminProducts(token: owner) == before)
            let shown = try await store.send(Endpoints.product, String(created.id)).decode(ProductBody.self)
            #expect(shown.title == title)
            // One line for the import, none for the products.
            let audit = try await store.database.audit.entries(limit: 1)
            #expect(audit.map(\.action) == ["catalog.imported"])
            #expect(audit.first?.subject == "catalog_upload:\(upload)")
            #expect(audit.first?.after?.contains(#""changed":"0""#) == true)

            // A file is imported once.
            let again = try await store.applyImport(upload, token: owner)
            #expect(again.status == 409)
            #expect(again.errorType == "already_imported")
        }
    }

    @Test(
        "a preview shows new, changed and unchanged products and changes nothing; the import applies all of it",
        arguments: Backend.allCases)
    func previewThenImport(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            let clerk = try await store.addStaff(role: .catalog)
            let catalogToken = try await store.staffToken(clerk, "a long password")
            let seeded = try await store.adminProducts(token: owner)
            var rows = catalogRows(seeded)
            // Product 1: a new price and a count of 100; product 2: archived.
            let bottle = try #require(seeded.first { $0.id == 1 })
            let cap = try #require(seeded.first { $0.id == 2 })
            rows[0].price = eur(11_20)
            rows[0].stock = 100
            rows[1].active = false
            rows.append(
                CatalogRow(
                    sku: "GAITER-1", title: #"Gaiters, "trail" pair"#, description: "Keeps stones out,\nfor good.",
                    category: "trail gear", price: eur(19_90), stock: 7, active: true))
            rows.append(
                CatalogRow(
                    sku: "GAITER-2", title: "Gaiters, winter", description: "", category: "trail gear",
                    price: eur(24_90), stock: 0, active: true))
            // The writer's own file: a byte-order mark, CRLF line ends, quoted commas, quotes and line breaks.
            let file = CatalogCSV.write(rows)
            #expect(file.starts(with: [0xEF, 0xBB, 0xBF]))

            let preview = try await store.preview(file, token: catalogToken)
            #expect(preview.problems == [])
            #expect(preview.upload != nil)
            #expect(preview.unchanged == seeded.count - 2)
            #expect(
                preview.new == [
                    CatalogImportNewProduct(
                        line: 22, sku: "GAITER-1", title: #"Gaiters, "trail" pair"#, category: "trail gear",
                        price: eur(19_90), stock: 7, active: true),
                    CatalogImportNewProduct(
                        line: 24, sku: "GAITER-2", title: "Gaiters, winter", category: "trail gear",
                        price: eur(24_90), stock: 0, active: true),
                ])
            #expect(
                preview.changed == [
                    CatalogImportChangedProduct(
                        line: 2, productID: 1, sku: bottle.sku, title: bottle.title,
                        changes: [
                            CatalogFieldChangeBody(field: "price", from: "10.20", to: "11.20"),
                            CatalogFieldChangeBody(field: "stock", from: String(bottle.stock), to: "100"),
                        ]),
                    CatalogImportChangedProduct(
                        line: 3, productID: 2, sku: cap.sku, title: cap.title,
                        changes: [CatalogFieldChangeBody(field: "active", from: "true", to: "false")]),
                ])
            // A preview changes nothing.
            #expect(try await store.adminProducts(token: owner) == seeded)
            #expect(try await store.send(Endpoints.product, "2").status == 200)

            let audited = try await store.auditCount()
            let applied = try await store.applyImport(try #require(preview.upload), token: catalogToken)
            #expect(applied.status == 200)
            #expect(
                try applied.decode(CatalogImportSummaryBody.self)
                    == CatalogImportSummaryBody(
                        created: 2, changed: 2, unchanged: seeded.count - 2, stockAdjustments: 2))

            // The shop shows it at once: the new price and stock, the cap gone, the gaiters in.
            let shownBottle = try await store.send(Endpoints.product, "1").decode(ProductBody.self)
            #expect(shownBottle.price == eur(11_20))
            #expect(shownBottle.stock == 100)
            #expect(try await store.send(Endpoints.product, "2").status == 404)
            let shop = try await store.send(Endpoints.products).decode([ProductBody].self)
            let gaiters = try #require(shop.first { $0.title == #"Gaiters, "trail" pair"# })
            #expect(gaiters.stock == 7)
            #expect(gaiters.description == "Keeps stones out,\nfor good.")
            #expect(try await store.send(Endpoints.categories).decode([String].self).last == "trail gear")

            // Versions: a new one for each changed product's details, 1 for the new ones.
            let after = try await store.adminProducts(token: owner)
            #expect(after.first { $0.id == 1 }?.version == bottle.version + 1)
            #expect(after.first { $0.id == 2 }?.version == cap.version + 1)
            #expect(after.first { $0.id == 2 }?.stock == cap.stock)
            #expect(after.filter { $0.sku.hasPrefix("GAITER-") }.map(\.version) == [1, 1])
            #expect(after.allSatisfy { $0.id <= 2 || $0.sku.hasPrefix("GAITER-") || $0.version == 1 })

            // Stock moved by counted adjustments in the ledger, never overwritten.
            let ledger = try await store.send(AdminEndpoints.stockMovements, "1", token: owner)
                .decode([StockMovementBody].self)
            #expect(ledger.first?.change == 100 - bottle.stock)
            #expect(ledger.first?.reason == "counted")
            #expect(ledger.first?.note == "Catalog import")
            #expect(ledger.first?.actor == clerk)
            #expect(try await store.ledgerSum(1) == 100)
            #expect(try await store.ledgerSum(gaiters.id) == 7)

            // One audit line per change, and one for the import, in the same transaction.
            let lines = try await store.database.audit.entries(limit: 100)
            #expect(try await store.auditCount() == audited + 7)
            #expect(
                Set(lines.prefix(7).map { "\($0.action) \($0.subject)" }).count == 7
                    && lines.prefix(7).filter { $0.action == "product.created" }.count == 2
                    && lines.prefix(7).filter { $0.action == "product.changed" }.count == 2
                    && lines.prefix(7).filter { $0.action == "stock.adjusted" }.count == 2)
            #expect(lines.first?.action == "catalog.imported")
            #expect(lines.first?.after?.contains(#""created":"2""#) == true)
            #expect(
                lines.first { $0.action == "product.changed" && $0.subject == "product:2" }?.after
                    == #"{"active":"false"}"#)
        }
    }

    @Test(
        "a file as other tools write it: no byte-order mark, LF line ends, every field quoted or a quoted header",
        arguments: [Backend.sqlite])
    func otherWritings(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            let allQuoted =
                #""sku","title","description","category","price","stock","active""# + "\n"
                + #""Q-1","Quoted, all","Says ""hi""","kitchen","3.50","2","yes""# + "\n"
            let quotedHeader =
                #""sku","title","description","category","price","stock","active""# + "\n"
                + "Q-2,Bare numbers,,kitchen,12.50,1,true\n"
            for (file, sku) in [(allQuoted, "Q-1"), (quotedHeader, "Q-2")] {
                let preview = try await store.preview(Array(file.utf8), token: owner)
                #expect(preview.problems == [], "\(sku)")
                #expect(preview.new.map(\.sku) == [sku])
            }
            let quoted = try await store.preview(Array(allQuoted.utf8), token: owner)
            #expect(try await store.applyImport(try #require(quoted.upload), token: owner).status == 200)
            let shown = try await store.send(Endpoints.products).decode([ProductBody].self)
            #expect(shown.first { $0.title == "Quoted, all" }?.description == #"Says "hi""#)
        }
    }

    @Test(
        "every bad file gets each problem with its line and why, no upload, and nothing applied",
        arguments: Backend.allCases)
    func badFiles(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            let header = Array(Self.header.utf8)
            func file(_ rows: String) -> [UInt8] { header + Array(rows.utf8) }
            let good = "OK-1,Good one,,kitchen,1.00,1,true\r\n"
            let tooMany = Array(
                (Self.header + (0...10_000).map { "MANY-\($0),Thing,,kitchen,1.00,1,true\r\n" }.joined()).utf8)
            let cases: [(String, [UInt8], [CatalogFileProblemBody])] = [
                (
                    "an empty file", [],
                    [
                        CatalogFileProblemBody(
                            line: nil, column: nil,
                            message: "The file is empty: it needs a header row and at least one product.")
                    ]
                ),
                (
                    "a header and no products", header,
                    [
                        CatalogFileProblemBody(
                            line: nil, column: nil, message: "The file has no products under its header.")
                    ]
                ),
                (
                    "a SKU twice", file(good + "DUP-1,A,,kitchen,1.00,1,true\r\nDUP-1,B,,kitchen,2.00,1,true\r\n"),
                    [CatalogFileProblemBody(line: 4, column: "sku", message: #"SKU "DUP-1" is also on line 3"#)]
                ),
                (
                    "a negative price", file(good + "NEG-1,A,,kitchen,-5.00,1,true\r\n"),
                    [CatalogFileProblemBody(line: 3, column: "price", message: "price must be above zero")]
                ),
                (
                    "a price with a decimal comma, quoted", file(good + "COMMA-1,A,,kitchen,\"12,50\",1,true\r\n"),
                    [
                        CatalogFileProblemBody(
                            line: 3, column: "price", message: #"price "12,50" is not an amount like 12.50"#)
                    ]
                ),
                (
                    "a price with a decimal comma, unquoted", file(good + "COMMA-2,A,,kitchen,12,50,1,true\r\n"),
                    [
                        CatalogFileProblemBody(
                            line: 3, column: nil,
                            message: "expected 7 fields, found 8: a value with a comma in it needs quotes around it, "
                                + "and a price is written like 12.50")
                    ]
                ),
                (
                    "bytes that are not UTF-8",
                    file(good) + Array("LATIN-1,Cr".utf8) + [0xE8]
                        + Array("me,,kitchen,1.00,1,true\r\n".utf8),
                    [
                        CatalogFileProblemBody(
                            line: 3, column: nil, message: "this line is not UTF-8 text; save the file as CSV UTF-8")
                    ]
                ),
                (
                    "an unknown column",
                    Array(
                        "sku,title,description,colour,category,price,stock,active\r\nA-1,A,,red,k,1.00,1,true\r\n".utf8),
                    [CatalogFileProblemBody(line: 1, column: nil, message: #"unknown column "colour""#)]
                ),
                (
                    "a missing column",
                    Array("sku,title,description,category,stock,active\r\nA-1,A,,k,1,true\r\n".utf8),
                    [CatalogFileProblemBody(line: 1, column: "price", message: #"missing column "price""#)]
                ),
                (
                    "more than 10,000 products", tooMany,
                    [
                        CatalogFileProblemBody(
                            line: nil, column: nil,
                            message: "The file has 10,001 product rows: at most 10,000 products per file.")
                    ]
                ),
                (
                    "a card number", file(good + "CARD-1,Gift 4242 4242 4242 4242,,kitchen,1.00,1,true\r\n"),
                    []
                ),
            ]
            let products = try await store.productCount()
            let audited = try await store.auditCount()
            for (name, bytes, problems) in cases {
                let reply = try await store.importFile(bytes, token: owner)
                if problems.isEmpty {
                    // Refused before anything reads it (docs/BEHAVIOUR.md §5.7): never kept, never echoed.
                    #expect(reply.status == 422, "\(name)")
                    #expect(reply.errorType == "card_number_rejected", "\(name)")
                    continue
                }
                #expect(reply.status == 200, "\(name)")
                let preview = try reply.decode(CatalogImportPreviewBody.self)
                #expect(preview.problems == problems, "\(name)")
                #expect(preview.upload == nil, "\(name)")
            }
            // The good rows of a file with a bad one are listed beside the problem, and still nothing
            // can be imported.
            let mixed = try await store.preview(
                file(good + "BAD-1,A,,kitchen,free,1,true\r\n" + "OK-2,Fine,,kitchen,2.00,0,true\r\n"), token: owner)
            #expect(mixed.new.map(\.sku) == ["OK-1", "OK-2"])
            #expect(mixed.problems.map(\.line) == [3])
            #expect(mixed.upload == nil)
            #expect(try await store.productCount() == products)
            #expect(try await store.auditCount() == audited)
            #expect(try await store.database.sql.read { try $0.query("SELECT id FROM catalog_uploads") }.isEmpty)

            // Not a CSV body, and a body over 8 MiB: refused before reading.
            let json = try await store.importFile(
                Array(#"{"sku":"A"}"#.utf8), token: owner, contentType: "application/json")
            #expect(json.status == 415)
            #expect(json.errorType == "unsupported_media_type")
            let huge = try await store.rawStatus(
                "POST /api/admin/products/import HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(owner)\r\n"
                    + "Content-Type: text/csv\r\nContent-Length: \((8 << 20) + 1)\r\n\r\n",
                body: [UInt8](repeating: UInt8(ascii: "a"), count: (8 << 20) + 1))
            #expect(huge == 413)
            // An upload that does not exist, is malformed, or is another member of staff's.
            let unknown = try await store.applyImport("upl_" + String(repeating: "a", count: 26), token: owner)
            #expect(unknown.status == 404)
            #expect(unknown.errorType == "upload_not_found")
            #expect(try await store.applyImport("nonsense", token: owner).status == 404)
            let mine = try #require(try await store.preview(file(good), token: owner).upload)
            let other = try await store.staffToken(try await store.addStaff(role: .catalog), "a long password")
            #expect(try await store.applyImport(mine, token: other).errorType == "upload_not_found")
            // A member of staff without the catalog's permission may neither preview nor import.
            let orders = try await store.staffToken(try await store.addStaff(role: .orders), "a long password")
            #expect(try await store.importFile(file(good), token: orders).status == 403)
            #expect(try await store.applyImport(mine, token: orders).status == 403)
            #expect(try await store.send(AdminEndpoints.exportCatalog, token: orders).status == 403)
            #expect(try await store.productCount() == products)
        }
    }

    @Test(
        "the import reads the kept file again against the catalog as it is then: a sale in between is counted over",
        arguments: Backend.allCases)
    func importAgainstTheCatalogAsItIsThen(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            var rows = catalogRows(try await store.adminProducts(token: owner))
            let counted = rows[2].stock - 10
            rows[2].stock = counted
            let preview = try await store.preview(CatalogCSV.write(rows), token: owner)
            #expect(preview.changed.map(\.productID) == [3])
            // Two socks are sold before the import.
            let shopper = try await store.newSession()
            _ = try await store.setQuantity(2, of: 3, token: shopper)
            let paid = try await store.checkout(
                token: shopper, key: "k", method: visa, total: try await store.basket(shopper).total.amountText)
            #expect(paid.status == 201)
            let applied = try await store.applyImport(try #require(preview.upload), token: owner)
            #expect(try applied.decode(CatalogImportSummaryBody.self).stockAdjustments == 1)
            // The count sets the figure the file has: the adjustment is the difference from the stock
            // as it was at the import (after the sale), written as one more ledger line.
            #expect(try await store.managedStock(3) == counted)
            #expect(try await store.ledgerSum(3) == counted)
            let ledger = try await store.send(AdminEndpoints.stockMovements, "3", token: owner)
                .decode([StockMovementBody].self)
            #expect(ledger.prefix(2).map(\.reason) == ["counted", "sale"])
            #expect(ledger.first?.change == -8)
        }
    }

    @Test("a preview can be imported for an hour, then it is gone", arguments: [Backend.sqlite])
    func previewsExpire(backend: Backend) async throws {
        let time = MovableClock()
        try await TestStore.with(backend, clock: time.clock) { store in
            let owner = try await store.ownerToken()
            let file = try await store.export(token: owner)
            let kept = try #require(try await store.preview(file, token: owner).upload)
            time.advance(by: 59 * 60)
            #expect(try await store.applyImport(kept, token: try await store.ownerToken()).status == 200)
            let late = try #require(try await store.preview(file, token: try await store.ownerToken()).upload)
            time.advance(by: 61 * 60)
            let expired = try await store.applyImport(late, token: try await store.ownerToken())
            #expect(expired.status == 404)
            #expect(expired.errorType == "upload_not_found")
        }
    }

    @Test("a preview on one server, its import on another: the same kept file, both shops show it")
    func twoServers() async throws {
        guard let base = TestPostgres.required() else { return }
        try await TestPostgres.withFreshSchema(base, prefix: "catalogio") { url in
            let one = try await TestStore.start(url: url)
            let two = try await TestStore.start(url: url)
            do {
                let owner = try await one.ownerToken()
                var rows = catalogRows(try await one.adminProducts(token: owner))
                rows[0].price = eur(12_34)
                let preview = try await one.preview(CatalogCSV.write(rows), token: owner)
                let applied = try await two.applyImport(try #require(preview.upload), token: owner)
                #expect(applied.status == 200)
                #expect(try await two.send(Endpoints.product, "1").decode(ProductBody.self).price == eur(12_34))
                // The other server's snapshot catches up at its next periodic refresh.
                #expect(
                    try await eventually(timeout: .seconds(30), every: .milliseconds(50)) {
                        try await one.send(Endpoints.product, "1").decode(ProductBody.self).price == eur(12_34)
                    })
                #expect(try await one.applyImport(try #require(preview.upload), token: owner).status == 409)
            } catch {
                await one.stop()
                await two.stop()
                throw error
            }
            await one.stop()
            await two.stop()
        }
    }

    @Test(
        "10,000 products in 5 MiB: previewed, imported in one go, listed by the shop; the export says when over 10,000",
        arguments: Backend.allCases)
    func tenThousandProducts(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            let description = Array(repeating: "A sturdy, handy thing; \"really\" good.", count: 13)
                .joined(separator: "\n")
            let rows = (0..<10_000).map { index in
                CatalogRow(
                    sku: "BULK-\(index)", title: "Bulk product \(index) — édition spéciale", description: description,
                    category: "bulk \(index % 7)", price: eur(Int64(100 + index)), stock: index % 50, active: true)
            }
            let file = CatalogCSV.write(rows)
            #expect(file.count > 5 << 20)
            #expect(file.count < CatalogCSV.maximumBytes)

            let preview = try await store.preview(file, token: owner)
            #expect(preview.problems == [])
            #expect(preview.new.count == 10_000)
            #expect(preview.new.last?.line == 2 + 9_999 * 13)
            let applied = try await store.applyImport(try #require(preview.upload), token: owner)
            #expect(applied.status == 200)
            #expect(
                try applied.decode(CatalogImportSummaryBody.self)
                    == CatalogImportSummaryBody(created: 10_000, changed: 0, unchanged: 0, stockAdjustments: 9_800))

            let shop = try await store.send(Endpoints.products).decode([ProductBody].self)
            #expect(shop.count == 20 + 10_000)
            #expect(shop.last?.title == "Bulk product 9999 — édition spéciale")
            #expect(shop.last?.stock == 9_999 % 50)
            #expect(try await store.send(Endpoints.categoryProducts, "bulk 3").decode([ProductBody].self).count > 1_000)

            // The catalog now has more products than one file may carry: its export says so when
            // imported, rather than importing part of it.
            let exported = try await store.export(token: owner)
            #expect(exported.count < CatalogCSV.maximumBytes)
            let again = try await store.preview(exported, token: owner)
            #expect(
                again.problems == [
                    CatalogFileProblemBody(
                        line: nil, column: nil,
                        message: "The file has 10,020 product rows: at most 10,000 products per file.")
                ])
            #expect(again.upload == nil)
        }
    }

    // MARK: Images

    @Test(
        "a PNG and a JPEG are checked by content, served back byte for byte with their types, and shown by the shop",
        arguments: Backend.allCases)
    func goodImages(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            let before = try await store.send(AdminEndpoints.product, "1", token: owner).decode(AdminProductBody.self)

            let png = try await store.uploadImage(TestImages.png, to: 1, contentType: "image/png", token: owner)
            #expect(png.status == 200)
            let withPNG = try png.decode(AdminProductBody.self)
            #expect(withPNG.image.hasPrefix("/images/products/"))
            #expect(withPNG.image.hasSuffix(".png"))
            #expect(withPNG.image.count == "/images/products/".count + 32 + 4)
            #expect(withPNG.version == before.version + 1)
            let served = try await store.send("GET", withPNG.image)
            #expect(served.status == 200)
            #expect(Array(served.body) == TestImages.png)
            #expect(served.header("Content-Type") == "image/png")
            #expect(served.header("X-Content-Type-Options") == "nosniff")
            #expect(served.header("Cache-Control") == "public, max-age=31536000, immutable")
            let tag = try #require(served.header("ETag"))
            #expect(try await store.send("GET", withPNG.image, headers: ["If-None-Match": tag]).status == 304)
            #expect(try await store.send("HEAD", withPNG.image).status == 200)

            // The shop points at it at once: the API and the storefront's product page.
            #expect(try await store.send(Endpoints.product, "1").decode(ProductBody.self).image == withPNG.image)
            #expect(try await store.send("GET", "/product/1").text.contains(withPNG.image))
            let audit = try #require(try await store.database.audit.entries(limit: 1).first)
            #expect(audit.action == "product.image_changed")
            #expect(audit.subject == "product:1")
            #expect(audit.before == #"{"image":"\#(before.image)"}"#)
            #expect(audit.after?.contains(#""content_type":"image/png""#) == true)

            // A JPEG as a form's file field, whatever the browser called it: judged by its bytes.
            let jpeg = try await store.uploadImageForm(
                TestImages.jpeg, to: 2, filename: "holiday.gif", partType: "application/octet-stream", token: owner)
            #expect(jpeg.status == 200)
            let withJPEG = try jpeg.decode(AdminProductBody.self)
            #expect(withJPEG.image.hasSuffix(".jpg"))
            let servedJPEG = try await store.send("GET", withJPEG.image)
            #expect(Array(servedJPEG.body) == TestImages.jpeg)
            #expect(servedJPEG.header("Content-Type") == "image/jpeg")

            // The same image again changes nothing; the same bytes for another product share the file.
            let same = try await store.uploadImage(TestImages.png, to: 1, contentType: "image/png", token: owner)
            #expect(try same.decode(AdminProductBody.self).version == withPNG.version)
            let shared = try await store.uploadImage(TestImages.png, to: 3, contentType: "image/jpeg", token: owner)
            #expect(try shared.decode(AdminProductBody.self).image == withPNG.image)

            // The seeded images are still served, and an unknown name is not found.
            let seeded = try await store.send("GET", "/images/water-bottle.svg")
            #expect(seeded.status == 200)
            #expect(seeded.header("Content-Type") == "image/svg+xml")
            #expect(
                try await store.send("GET", "/images/products/" + String(repeating: "0", count: 32) + ".png").status
                    == 404)
            #expect(try await store.send("GET", "/images/products/..%2Fwater-bottle.svg").status == 404)
            #expect(try await store.send("GET", "/images/products/nothing.png").status == 404)
        }
    }

    @Test(
        "text named .png, a PNG over 2 MiB, an SVG and a cut JPEG are refused, and nothing changes",
        arguments: Backend.allCases)
    func badImages(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            let before = try await store.send(AdminEndpoints.product, "1", token: owner).decode(AdminProductBody.self)
            let audited = try await store.auditCount()

            let text = try await store.uploadImageForm(
                Array("just some text".utf8), to: 1, filename: "photo.png", partType: "image/png", token: owner)
            #expect(text.status == 422)
            #expect(text.errorType == "invalid_image")
            #expect(try text.decode(ErrorBody.self).error.field == "image")
            #expect(try text.decode(ErrorBody.self).error.message.hasPrefix("That file is not a PNG or JPEG image."))

            let svg = Array(
                #"<svg xmlns="http://www.w3.org/2000/svg" width="3" height="2"><script>alert(1)</script></svg>"#.utf8)
            let svgReply = try await store.uploadImage(svg, to: 1, contentType: "image/svg+xml", token: owner)
            #expect(svgReply.status == 422)
            #expect(svgReply.errorType == "invalid_image")
            let svgAsPNG = try await store.uploadImage(svg, to: 1, contentType: "image/png", token: owner)
            #expect(svgAsPNG.errorType == "invalid_image")

            let cut = try await store.uploadImage(
                Array(TestImages.jpeg.dropLast(2)), to: 1, contentType: "image/jpeg", token: owner)
            #expect(cut.status == 422)
            #expect(try cut.decode(ErrorBody.self).error.message.hasPrefix("The image file is cut short."))

            // 2 MiB + 1 byte: within what the route reads, over what an image may be.
            let padded = TestImages.png + [UInt8](repeating: 0, count: (2 << 20) + 1 - TestImages.png.count)
            let large = try await store.uploadImage(padded, to: 1, contentType: "image/png", token: owner)
            #expect(large.status == 413)
            #expect(large.errorType == "image_too_large")
            // Far over: refused as the body arrives.
            let huge = try await store.rawStatus(
                "POST /api/admin/products/1/image HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(owner)\r\n"
                    + "Content-Type: image/png\r\nContent-Length: \(3 << 20)\r\n\r\n",
                body: [UInt8](repeating: 0, count: 3 << 20))
            #expect(huge == 413)

            let json = try await store.uploadImage(
                Array("{}".utf8), to: 1, contentType: "application/json", token: owner)
            #expect(json.status == 415)
            let noField = try await store.uploadImageForm(
                TestImages.png, to: 1, field: "picture", filename: "a.png", partType: "image/png", token: owner)
            #expect(noField.status == 422)
            #expect(noField.errorType == "invalid_image")
            let unknown = try await store.uploadImage(TestImages.png, to: 999, contentType: "image/png", token: owner)
            #expect(unknown.status == 404)

            #expect(
                try await store.send(AdminEndpoints.product, "1", token: owner).decode(AdminProductBody.self) == before)
            #expect(try await store.auditCount() == audited)
            #expect(try await store.database.sql.read { try $0.query("SELECT path FROM product_images") }.isEmpty)
            let orders = try await store.staffToken(try await store.addStaff(role: .orders), "a long password")
            #expect(
                try await store.uploadImage(TestImages.png, to: 1, contentType: "image/png", token: orders).status
                    == 403)
        }
    }
}
