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
        var productsJSON = Document(Array("[]".utf8))
        var productJSON: [ProductID: Document] = [:]
        var categoriesJSON = Document(Array("[]".utf8))
        var categoryJSON: [String: Document] = [:]
        /// The product each of `productJSON`'s documents was encoded from.
        var encodedFrom: [ProductID: Product] = [:]
        /// Fake-Store documents by the `Host` they were built for (their image URLs are absolute);
        /// those built for an earlier snapshot are brought up to date on their next use.
        var fakeStore: [String: FakeStoreDocuments] = [:]
        /// The snapshot they were encoded from.
        var snapshot = Catalog.Snapshot()
    }

    struct FakeStoreDocuments: Sendable {
        var products: Document
        var product: [ProductID: Document]
        var category: [String: Document]
        /// The product each of `product`'s documents was encoded from.
        var encodedFrom: [ProductID: Product] = [:]
        /// The snapshot these documents show.
        var generation: Int
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
        var documents = Documents(fakeStore: previous?.fakeStore ?? [:], snapshot: snapshot)
        var ordered: [Document] = []
        ordered.reserveCapacity(snapshot.products.count)
        for product in snapshot.products {
            let document =
                if let kept = previous?.productJSON[product.id], previous?.encodedFrom[product.id] == product {
                    kept
                } else {
                    try Document(encoding: ProductBody(product), with: encoder)
                }
            ordered.append(document)
            documents.productJSON[product.id] = document
            documents.encodedFrom[product.id] = product
        }
        documents.productsJSON = Document(list: ordered)
        documents.categoriesJSON = try Document(encoding: snapshot.categories, with: encoder)
        for category in snapshot.categories {
            documents.categoryJSON[category] = Document(
                list: zip(snapshot.products, ordered).filter { $0.0.category == category }.map(\.1))
        }
        return documents
    }

    /// The Fake-Store documents of `snapshot` for `host`, keeping those of `previous` (built for
    /// the same host) whose product is unchanged.
    static func buildFakeStore(
        _ snapshot: Catalog.Snapshot, host: String, reusing previous: FakeStoreDocuments? = nil
    ) throws -> FakeStoreDocuments {
        let encoder = StoreJSON.encoder
        var ordered: [Document] = []
        ordered.reserveCapacity(snapshot.products.count)
        var documents = FakeStoreDocuments(
            products: emptyList, product: [:], category: [:], generation: snapshot.generation)
        for product in snapshot.products {
            let document =
                if let kept = previous?.product[product.id], previous?.encodedFrom[product.id] == product {
                    kept
                } else {
                    try Document(encoding: FakeStoreProduct(product, imageBase: "http://\(host)"), with: encoder)
                }
            ordered.append(document)
            documents.product[product.id] = document
            documents.encodedFrom[product.id] = product
        }
        documents.products = Document(list: ordered)
        for category in snapshot.categories {
            documents.category[category] = Document(
                list: zip(snapshot.products, ordered).filter { $0.0.category == category }.map(\.1))
        }
        return documents
    }
}

/// A cached JSON document, prepared once to be sent many times.
struct Document: Sendable {
    let prepared: PreparedResponse

    init(_ json: [UInt8]) {
        prepared = PreparedResponse(Response.bytes(json, contentType: "application/json; charset=utf-8"))
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

    /// The document's bytes.
    var json: [UInt8] { prepared.response.body }

    /// The document as a response.
    var response: Response { Response(prepared: prepared) }
}
