import CheckoutKit
import Concurrency
import Foundation
import StoreAPI
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import TestWaiting
import Testing

@testable import StoreServer

/// The catalog's documents are built again for each snapshot from what changed: they must be the
/// very bytes the encoder writes for the whole catalog.
@Suite("Catalog documents, built from what changed") struct CatalogCacheTests {
    static let categories = ["hydration", "tents", "stoves", "packs"]
    static let texts = [
        "Trail bottle", "Tent \"Ultra\" 2", "Stove / burner", "Café crème mug", "Line\nbreak", "Tab\there",
        "Emoji 🏕️", "Back\\slash", "<b>bold</b>", "\u{2028}separator", "",
    ]

    static func product(_ id: Int64, _ random: inout SplitMix64) throws -> Product {
        let rating = try #require(
            Rating(tenths: Int.random(in: 0...50, using: &random), count: Int.random(in: 0...999, using: &random)))
        return Product(
            id: ProductID(id), title: texts.randomElement(using: &random) ?? "",
            description: texts.randomElement(using: &random) ?? "",
            category: categories.randomElement(using: &random) ?? "packs",
            price: Money(
                minorUnits: Int64.random(in: 1...1_000_000, using: &random),
                currency: Currency.known.randomElement(using: &random) ?? .eur),
            imagePath: "/images/\(id).svg",
            rating: rating,
            stock: Int.random(in: 0...500, using: &random))
    }

    /// `count` random products (ids 1…count) from `seed`, and the generator to go on with.
    static func catalog(seed: UInt64, count: Int64) throws -> (SplitMix64, [Product]) {
        var random = SplitMix64(seed: seed)
        let products = try (1...count).map { try product($0, &random) }
        return (random, products)
    }

    /// Every document of `documents` against the encoder's bytes for `snapshot`.
    static func expectEncoded(_ documents: CatalogCache.Documents, _ snapshot: Catalog.Snapshot) throws {
        let encoder = StoreJSON.encoder
        let bodies = snapshot.products.map(ProductBody.init)
        #expect(documents.productsJSON.json == Array(try encoder.encode(bodies)))
        #expect(documents.categoriesJSON.json == Array(try encoder.encode(snapshot.categories)))
        #expect(documents.productJSON.count == bodies.count)
        for body in bodies {
            #expect(documents.productJSON[ProductID(body.id)]?.json == Array(try encoder.encode(body)))
        }
        for category in snapshot.categories {
            #expect(
                documents.categoryJSON[category]?.json
                    == Array(try encoder.encode(bodies.filter { $0.category == category })))
        }
    }

    static func expectEncoded(_ documents: CatalogCache.FakeStoreDocuments, _ snapshot: Catalog.Snapshot) throws {
        let encoder = StoreJSON.encoder
        let bodies = snapshot.products.map { FakeStoreProduct($0, imageBase: "http://shop.example") }
        #expect(documents.products.json == Array(try encoder.encode(bodies)))
        for (product, body) in zip(snapshot.products, bodies) {
            #expect(documents.product[product.id]?.json == Array(try encoder.encode(body)))
        }
        for category in snapshot.categories {
            let inCategory = zip(snapshot.products, bodies).filter { $0.0.category == category }.map(\.1)
            #expect(documents.category[category]?.json == Array(try encoder.encode(inCategory)))
        }
    }

    @Test("a changed product is encoded again, an unchanged one keeps its document, the lists are the encoder's")
    func incremental() throws {
        var (random, products) = try Self.catalog(seed: 20_261_205, count: 60)
        var snapshot = Catalog.Snapshot(generation: 1, products: products, categories: Self.categories)
        var documents = try CatalogCache.build(snapshot)
        try Self.expectEncoded(documents, snapshot)
        var fakeStore = try CatalogCache.buildFakeStore(snapshot, host: "shop.example")
        try Self.expectEncoded(fakeStore, snapshot)

        for round in 0..<40 {
            // Stock sold, a title or a price edited, a product moved, added or gone.
            var changed = Set<ProductID>()
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                let index = Int.random(in: 0..<products.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: products[index].stock = max(0, products[index].stock - 1)
                case 1: products[index].title = (Self.texts.randomElement(using: &random) ?? "") + " \(round)"
                case 2: products[index].price = Money(minorUnits: Int64(100 + round), currency: .jpy)
                default: products[index].category = Self.categories.randomElement(using: &random) ?? "packs"
                }
                changed.insert(products[index].id)
            }
            if round % 5 == 0 { products.append(try Self.product(Int64(1_000 + round), &random)) }
            if round % 7 == 0 { products.remove(at: Int.random(in: 0..<products.count, using: &random)) }

            let previous = documents
            let previousFakeStore = fakeStore
            snapshot = Catalog.Snapshot(generation: round + 2, products: products, categories: Self.categories)
            documents = try CatalogCache.build(snapshot, reusing: previous)
            try Self.expectEncoded(documents, snapshot)
            fakeStore = try CatalogCache.buildFakeStore(snapshot, host: "shop.example", reusing: previousFakeStore)
            try Self.expectEncoded(fakeStore, snapshot)
            #expect(fakeStore.generation == round + 2)

            let before = Dictionary(uniqueKeysWithValues: previous.api.products.map { ($0.id, $0) })
            for product in products where before[product.id] == product {
                #expect(documents.productJSON[product.id]?.prepared === previous.productJSON[product.id]?.prepared)
                #expect(fakeStore.product[product.id]?.prepared === previousFakeStore.product[product.id]?.prepared)
            }
            for id in changed where previous.productJSON[id] != nil && documents.productJSON[id] != nil {
                if before[id] != documents.api.products.first(where: { $0.id == id }) {
                    #expect(documents.productJSON[id]?.prepared !== previous.productJSON[id]?.prepared)
                }
            }
        }
    }

    @Test("a sale rebuilds the lists of its products' categories only; a product moved rebuilds both")
    func saleTouchesItsCategories() throws {
        var products = try Self.catalog(seed: 20_261_206, count: 200).1
        let first = Catalog.Snapshot(generation: 1, products: products, categories: Self.categories)
        let before = try CatalogCache.build(first)

        // A sale: one product's stock.
        let sold = try #require(products.indices.first { products[$0].stock > 0 })
        products[sold].stock -= 1
        let afterSale = Catalog.Snapshot(generation: 2, products: products, categories: Self.categories)
        let sale = try CatalogCache.build(afterSale, reusing: before)
        try Self.expectEncoded(sale, afterSale)
        for name in Self.categories {
            let kept = sale.categoryJSON[name]?.prepared === before.categoryJSON[name]?.prepared
            #expect(kept == (name != products[sold].category), "\(name)")
        }

        // A product moved to another category, in the same place: both lists change, rightly.
        let moved = try #require(products.indices.first { products[$0].category != products[sold].category })
        let from = products[moved].category
        products[moved].category = products[sold].category
        let afterMove = Catalog.Snapshot(generation: 3, products: products, categories: Self.categories)
        let move = try CatalogCache.build(afterMove, reusing: sale)
        try Self.expectEncoded(move, afterMove)
        #expect(move.categoryJSON[from]?.prepared !== sale.categoryJSON[from]?.prepared)
        #expect(
            move.categoryJSON[products[sold].category]?.prepared
                !== sale.categoryJSON[products[sold].category]?.prepared)

        // A category more: every list is the encoder's again.
        let widened = Catalog.Snapshot(generation: 4, products: products, categories: Self.categories + ["new"])
        try Self.expectEncoded(try CatalogCache.build(widened, reusing: move), widened)
    }

    @Test("an empty catalog is empty lists")
    func empty() throws {
        let snapshot = Catalog.Snapshot(generation: 1, products: [], categories: [])
        let documents = try CatalogCache.build(snapshot)
        #expect(documents.productsJSON.json == Array("[]".utf8))
        try Self.expectEncoded(documents, snapshot)
        let categoryWithout = Catalog.Snapshot(generation: 2, products: [], categories: ["tents"])
        try Self.expectEncoded(try CatalogCache.build(categoryWithout, reusing: documents), categoryWithout)
    }
}

/// What a sale changes reaches the catalog's readers by reading that stock alone.
@Suite("Catalog snapshot: stock refreshed alone") struct CatalogStockRefreshTests {
    @Test(
        "a paid order's stock reaches the API soon, without waiting for the periodic read", arguments: Backend.allCases)
    func afterCheckout(backend: Backend) async throws {
        var configuration = StoreConfiguration()
        configuration.catalogRefreshInterval = .seconds(3_600)
        try await TestStore.with(backend, configuration: configuration) { store in
            let token = try await store.workedCaseShopper()
            let before = try await Self.stockShown(3, store)
            #expect(try await store.stock(3) == before)
            let reply = try await store.checkout(token: token, key: "k-1", method: visa, total: "45.00")
            #expect(reply.status == 201, "\(reply.text)")
            #expect(try await eventually { try await Self.stockShown(3, store) == before - 2 })
            #expect(try await Self.stockShown(3, store) == store.stock(3))
        }
    }

    static func stockShown(_ id: Int64, _ store: TestStore) async throws -> Int {
        try await store.send("GET", "/api/products/\(id)").decode(ProductBody.self).stock
    }

    @Test("reading the stock of some products changes only their stock, and only when it moved")
    func stockAlone() async throws {
        try await TestStore.with(.sqlite) { store in
            let catalog = Catalog(database: store.database)
            try await catalog.refresh()
            let seen = Locked<[Int]>([])
            try catalog.onChange { snapshot in seen.withLock { $0.append(snapshot.generation) } }
            let start = catalog.current
            let socks = try #require(start.product(ProductID(3)))
            let bottle = try #require(start.product(ProductID(1)))
            _ = try await store.database.sql.write { connection in
                try connection.execute("UPDATE products SET stock = 7, title = 'Renamed' WHERE id = 3")
                try connection.execute("UPDATE products SET stock = 9 WHERE id = 1")
            }
            try await catalog.refreshStock(of: [ProductID(3)])
            let stocked = catalog.current
            #expect(stocked.generation == start.generation + 1)
            #expect(stocked.product(ProductID(3))?.stock == 7)
            #expect(stocked.product(ProductID(3))?.title == socks.title)
            #expect(stocked.product(ProductID(1)) == bottle)
            // Nothing moved: no new snapshot.
            try await catalog.refreshStock(of: [ProductID(3), ProductID(999_999)])
            #expect(catalog.current.generation == stocked.generation)
            // The whole read brings the rest.
            try await catalog.refresh()
            #expect(catalog.current.product(ProductID(3))?.title == "Renamed")
            #expect(catalog.current.product(ProductID(1))?.stock == 9)
            #expect(seen.current == [start.generation, start.generation + 1, start.generation + 2])
        }
    }

    @Test("refreshes asked for together run one after another, each from the snapshot the last one left")
    func oneAtATime() async throws {
        try await TestStore.with(.sqlite) { store in
            let catalog = Catalog(database: store.database)
            try await catalog.refresh()
            let start = catalog.current.generation
            // A listener that takes its time, and notes a second snapshot arriving while it works.
            let state = Locked((inside: false, overlapped: false, generations: [Int]()))
            try catalog.onChange { snapshot in
                state.withLock { state in
                    if state.inside { state.overlapped = true }
                    state.inside = true
                    state.generations.append(snapshot.generation)
                }
                usleep(20_000)
                state.withLock { $0.inside = false }
            }
            for round in 1...10 {
                _ = try await store.database.sql.write { connection in
                    try connection.execute("UPDATE products SET stock = \(round) WHERE id = 3")
                }
                async let whole: Void = catalog.refresh()
                async let stock: Void = catalog.refreshStock(of: [ProductID(3)])
                _ = try await (whole, stock)
                #expect(catalog.current.product(ProductID(3))?.stock == round)
            }
            // One new snapshot a round: the second read, begun after the first was shown, found
            // nothing new; no two were ever made from the same snapshot at once.
            #expect(catalog.current.generation == start + 10)
            #expect(!state.current.overlapped)
            #expect(state.current.generations == [start] + (1...10).map { start + $0 })
        }
    }
}
