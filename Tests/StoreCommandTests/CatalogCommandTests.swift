import CatalogFiles
import CheckoutKit
import Foundation
import StoreDatabase
import StoreServerTestSupport
import StoreTestSupport
import Testing

/// `store catalog import` and `store catalog export`, run as the built executable against a real
/// SQLite file (docs/BEHAVIOUR.md §13.14).
@Suite("store catalog", .serialized) struct CatalogCommandTests {
    /// Runs `store` with `arguments`; its exit status, standard output and standard error.
    static func run(_ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
        let running = try StoreProcess.launch(arguments)
        let status = try await StoreProcess.waitForExit(running)
        return (status, running.stdout.text, running.stderr.text)
    }

    /// The products of the database at `url`, archived too, and its audit log, newest first.
    static func contents(_ url: String) async throws -> (products: [ManagedProduct], audit: [AuditEntry]) {
        let database = try await StoreDatabase.open(url: url, seed: false)
        do {
            let products = try await database.catalogImport.allProducts()
            let audit = try await database.audit.entries(limit: 1_000)
            await database.close()
            return (products, audit)
        } catch {
            await database.close()
            throw error
        }
    }

    @Test("export, a dry run, an import with its audit lines, and an export that imports back to no change")
    func exportAndImport() async throws {
        try await withTemporaryDirectory("store-catalog") { directory in
            let database = "sqlite:\(directory.appendingPathComponent("shop.sqlite").path)"
            #expect(try await Self.run(["migrate", "--database", database]).status == 0)

            let toStandardOutput = try await Self.run(["catalog", "export", "--database", database])
            #expect(toStandardOutput.status == 0)
            #expect(toStandardOutput.out.hasPrefix("\u{FEFF}sku,title,description,category,price,stock,active\r\n"))
            let file = directory.appendingPathComponent("catalog.csv")
            let toFile = try await Self.run(["catalog", "export", "--database", database, "--to", file.path])
            #expect(toFile.status == 0)
            #expect(toFile.err == "exported 20 products to \(file.path)\n")
            let exported = try Data(contentsOf: file)
            #expect(String(decoding: exported, as: UTF8.self) == toStandardOutput.out)

            // A new price for the bottle, and a new product with stock.
            var rows = CatalogCSV.read(Array(exported), currency: .eur).rows.map(\.row)
            rows[0].price = Money(minorUnits: 11_20, currency: .eur)
            rows.append(
                CatalogRow(
                    sku: "GAITER-1", title: "Trail gaiters, a pair", description: "", category: "trail gear",
                    price: Money(minorUnits: 19_90, currency: .eur), stock: 5, active: true))
            let changed = directory.appendingPathComponent("changed.csv")
            try Data(CatalogCSV.write(rows)).write(to: changed)
            let before = try await Self.contents(database)

            let dryRun = try await Self.run(["catalog", "import", changed.path, "--dry-run", "--database", database])
            #expect(dryRun.status == 0)
            #expect(
                dryRun.out == """
                    \(changed.path): 1 new, 1 changed, 19 unchanged
                    new      line 22: GAITER-1 “Trail gaiters, a pair” in trail gear, 19.90, stock 5
                    changed  line 2: WATER-BOTTLE: price 10.20 → 11.20
                    dry run: nothing was imported

                    """)
            #expect(try await Self.contents(database) == before)

            let imported = try await Self.run(["catalog", "import", changed.path, "--database", database])
            #expect(imported.status == 0)
            #expect(imported.out.hasSuffix("imported: 1 new, 1 changed, 19 unchanged, 1 stock adjustment\n"))
            let after = try await Self.contents(database)
            #expect(after.products.count == 21)
            #expect(after.products.first?.details.price == Money(minorUnits: 11_20, currency: .eur))
            #expect(after.products.last?.stock == 5)
            // Written to the audit log as done by the command line, one line per change and one for the file.
            let lines = after.audit.prefix(after.audit.count - before.audit.count)
            #expect(
                lines.map(\.action).sorted() == [
                    "catalog.imported", "product.changed", "product.created", "stock.adjusted",
                ])
            #expect(lines.allSatisfy { $0.actor == "command line" && $0.staffID == nil })

            // Exported again, the file imports to no change at all.
            let again = directory.appendingPathComponent("again.csv")
            #expect(try await Self.run(["catalog", "export", "--database", database, "--to", again.path]).status == 0)
            let noChange = try await Self.run(["catalog", "import", again.path, "--database", database])
            #expect(noChange.status == 0)
            #expect(noChange.out.hasPrefix("\(again.path): 0 new, 0 changed, 21 unchanged\n"))
            #expect(try await Self.contents(database).products == after.products)
        }
    }

    @Test("the help explains both commands and their options")
    func help() async throws {
        let help = try await Self.run(["--help"])
        #expect(help.status == 0)
        for words in [
            "store catalog import FILE [--dry-run]", "store catalog export [--to FILE]", "--dry-run", "--to FILE",
            "counted",
        ] {
            #expect(help.out.contains(words), "\(words)")
        }
    }

    @Test("a file with problems prints each with its line, exits 1 and imports nothing")
    func problems() async throws {
        try await withTemporaryDirectory("store-catalog") { database in
            let url = "sqlite:\(database.appendingPathComponent("shop.sqlite").path)"
            #expect(try await Self.run(["migrate", "--database", url]).status == 0)
            let before = try await Self.contents(url)
            let file = database.appendingPathComponent("bad.csv")
            try Data(
                ("\u{FEFF}sku,title,description,category,price,stock,active\r\n"
                    + "OK-1,Fine,,kitchen,1.00,1,true\r\n"
                    + "OK-2,\"Price, with a comma\",,kitchen,\"12,50\",1,true\r\n"
                    + "OK-1,Again,,kitchen,-3.00,1,true\r\n").utf8
            ).write(to: file)
            let refused = try await Self.run(["catalog", "import", file.path, "--database", url])
            #expect(refused.status == 1)
            #expect(
                refused.out == """
                    \(file.path): 1 new, 0 changed, 0 unchanged; 3 problems
                    new      line 2: OK-1 “Fine” in kitchen, 1.00, stock 1
                    Line 3: price "12,50" is not an amount like 12.50.
                    Line 4: SKU "OK-1" is also on line 2.
                    Line 4: price must be above zero.

                    """)
            #expect(refused.err.contains("the file has problems; nothing was imported"))
            #expect(try await Self.contents(url) == before)

            let missing = try await Self.run([
                "catalog", "import", database.appendingPathComponent("nowhere.csv").path, "--database", url,
            ])
            #expect(missing.status == 1)
            #expect(missing.err.contains("cannot read"))
            for arguments in [
                ["catalog"], ["catalog", "import"], ["catalog", "import", "a.csv", "--bogus"], ["catalog", "delete"],
                ["catalog", "export", "--to"],
            ] {
                let usage = try await Self.run(arguments)
                #expect(usage.status == 64, "\(arguments)")
                #expect(usage.err.contains("store --help"), "\(arguments)")
            }
        }
    }
}
