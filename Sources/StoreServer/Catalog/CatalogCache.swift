import CheckoutKit
import Concurrency
import Foundation
import HTTPServer
import StoreAPI
import StoreServices

/// The catalog as the API sends it: JSON documents encoded once per catalog snapshot
/// (``StoreServices/Catalog``) and sent from the network threads without waiting on anything.
///
/// A new snapshot mostly differs from the one before in a few products (a checkout changes the
/// stock of what it sold), and the catalog may be large: a product's document is encoded again
/// only when the product changed, and the lists are the products' documents joined, which is
/// byte for byte what the encoder writes for the list.
final class CatalogCache: Sendable {
    /// The documents of one snapshot.
    struct Documents: Sendable {
        /// The products' documents as the native API writes them.
        var api = ProductDocuments()
        var categoriesJSON = Document(Array("[]".utf8))
        /// Fake-Store documents by the `Host` they were built for (their image URLs are absolute);
        /// those built for an earlier snapshot are brought up to date on their next use.
        var fakeStore: [String: FakeStoreDocuments] = [:]
        /// The snapshot they were encoded from.
        var snapshot = Catalog.Snapshot()

        var productsJSON: Document { api.list }
        var productJSON: [ProductID: Document] { api.byID }
        var categoryJSON: [String: Document] { api.category }
    }

    struct FakeStoreDocuments: Sendable {
        var documents: ProductDocuments
        /// The snapshot these documents show.
        var generation: Int

        var products: Document { documents.list }
        var product: [ProductID: Document] { documents.byID }
        var category: [String: Document] { documents.category }
    }

    /// `[]`, for lists with nothing in them.
    static let emptyList = Document(Array("[]".utf8))

    private let documents = Locked(Documents())

    /// Documents for `catalog`, encoded now and again for each of its snapshots.
    init(catalog: Catalog) throws {
        try catalog.onChange { [documents] snapshot in
            let previous = documents.current
            let fresh = try Self.build(snapshot, reusing: previous)
            documents.withLock { $0 = fresh }
        }
    }

    /// One value of the current documents, read under the lock without copying the rest of them.
    func read<Value>(_ body: (Documents) -> Value) -> Value {
        documents.withLock { body($0) }
    }

    /// The Fake-Store documents for `host`, built on first use and kept (for a bounded set of hosts).
    func fakeStoreDocuments(host: String) throws -> FakeStoreDocuments {
        let (snapshot, kept) = read { ($0.snapshot, $0.fakeStore[host]) }
        if let kept, kept.generation == snapshot.generation { return kept }
        let built = try Self.buildFakeStore(snapshot, host: host, reusing: kept)
        documents.withLock { documents in
            guard documents.snapshot.generation == snapshot.generation else { return }
            if documents.fakeStore[host] == nil, documents.fakeStore.count >= 16 { documents.fakeStore.removeAll() }
            documents.fakeStore[host] = built
        }
        return built
    }

    /// The documents of `snapshot`. A product's document in `previous` is kept when the product is
    /// unchanged; the rest is encoded.
    static func build(_ snapshot: Catalog.Snapshot, reusing previous: Documents? = nil) throws -> Documents {
        let encoder = StoreJSON.encoder
        return Documents(
            api: try ProductDocuments(snapshot, reusing: previous?.api) { product in
                try Document(encoding: ProductBody(product), with: encoder)
            },
            categoriesJSON: try Document(encoding: snapshot.categories, with: encoder),
            fakeStore: previous?.fakeStore ?? [:], snapshot: snapshot)
    }

    /// The Fake-Store documents of `snapshot` for `host`, keeping those of `previous` (built for
    /// the same host) whose product is unchanged.
    static func buildFakeStore(
        _ snapshot: Catalog.Snapshot, host: String, reusing previous: FakeStoreDocuments? = nil
    ) throws -> FakeStoreDocuments {
        let encoder = StoreJSON.encoder
        let documents = try ProductDocuments(snapshot, reusing: previous?.documents) { product in
            try Document(encoding: FakeStoreProduct(product, imageBase: "http://\(host)"), with: encoder)
        }
        return FakeStoreDocuments(documents: documents, generation: snapshot.generation)
    }
}

/// One document per product of a snapshot, and the lists they make: all of them, and each
/// category's.
struct ProductDocuments: Sendable {
    /// The products the documents were encoded from, in the snapshot's order.
    private(set) var products: [Product] = []
    /// Their documents, in the same order.
    private(set) var ordered: [Document] = []
    /// Their documents by product.
    private(set) var byID: [ProductID: Document] = [:]
    /// The list of all of them.
    private(set) var list = CatalogCache.emptyList
    /// The list of each category's, for every category of the snapshot.
    private(set) var category: [String: Document] = [:]
    /// The categories of the snapshot, in its order.
    private var categoryNames: [String] = []
    /// Where each category's products are in `ordered`, in order.
    private var members: [String: [Int]] = [:]

    init() {}

    /// The documents of `snapshot`'s products, made by `encode` — except for a product `previous`
    /// holds unchanged, whose document is kept. After a sale the order and the products are the
    /// same but for a few, which is the case kept cheap: no product is looked up by id then.
    init(
        _ snapshot: Catalog.Snapshot, reusing previous: ProductDocuments?, encode: (Product) throws -> Document
    ) rethrows {
        let products = snapshot.products
        var previousIndex: [ProductID: Int]?
        var sameProducts = previous?.products.count == products.count
        var encoded: [Int] = []
        ordered.reserveCapacity(products.count)
        for (index, product) in products.enumerated() {
            var kept: Document?
            if let previous {
                if index < previous.products.count, previous.products[index].id == product.id {
                    if previous.products[index] == product { kept = previous.ordered[index] }
                } else {
                    sameProducts = false
                    if previousIndex == nil {
                        previousIndex = Dictionary(
                            previous.products.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
                    }
                    if let at = previousIndex?[product.id], previous.products[at] == product {
                        kept = previous.ordered[at]
                    }
                }
            }
            if let kept {
                ordered.append(kept)
            } else {
                ordered.append(try encode(product))
                encoded.append(index)
            }
        }
        self.products = products
        if let previous, sameProducts {
            // The same products in the same order: only the documents encoded again change.
            byID = previous.byID
            for index in encoded { byID[products[index].id] = ordered[index] }
        } else {
            byID.reserveCapacity(products.count)
            for (product, document) in zip(products, ordered) { byID[product.id] = document }
        }
        list = Document(list: ordered)
        categoryNames = snapshot.categories
        if let previous, sameProducts, previous.categoryNames == snapshot.categories,
            encoded.allSatisfy({ previous.products[$0].category == products[$0].category })
        {
            // A sale, or an edit that moved nothing: every product in its place and its category, so
            // only the lists of the categories holding a product encoded again change.
            members = previous.members
            category = previous.category
            for name in Set(encoded.map { products[$0].category }) where category[name] != nil {
                category[name] = Document(list: (members[name] ?? []).map { ordered[$0] })
            }
        } else {
            for (index, product) in products.enumerated() { members[product.category, default: []].append(index) }
            for name in snapshot.categories {
                category[name] = Document(list: (members[name] ?? []).map { ordered[$0] })
            }
        }
    }
}

/// A cached JSON document, prepared once to be sent many times.
struct Document: Sendable {
    let prepared: PreparedResponse
    /// The document's bytes (the same buffer as the response's body).
    let json: [UInt8]

    init(_ json: [UInt8]) {
        prepared = PreparedResponse(Response.bytes(json, contentType: "application/json; charset=utf-8"))
        self.json = json
    }

    init(encoding value: some Encodable, with encoder: JSONEncoder) throws {
        self.init(Array(try encoder.encode(value)))
    }

    /// A JSON array of `elements`' documents: `[`, each one's bytes, `,` between them, `]` — what
    /// the encoder writes for the array of their values, without encoding them again.
    init(list elements: [Document]) {
        var json: [UInt8] = []
        json.reserveCapacity(elements.reduce(2) { $0 + $1.json.count + 1 })
        json.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(contentsOf: element.json)
        }
        json.append(UInt8(ascii: "]"))
        self.init(json)
    }

    /// The document as a response.
    var response: Response { Response(prepared: prepared) }
}
