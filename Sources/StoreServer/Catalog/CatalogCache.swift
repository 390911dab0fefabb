import CheckoutKit
import Concurrency
import Foundation
import HTTPServer
import StoreAPI
import StoreServices

/// The catalog as the API sends it: JSON documents encoded once per catalog snapshot
/// (``StoreServices/Catalog``) and sent from the network threads without waiting on anything.
final class CatalogCache: Sendable {
    /// The documents of one snapshot.
    struct Documents: Sendable {
        var productsJSON = Document(Array("[]".utf8))
        var productJSON: [ProductID: Document] = [:]
        var categoriesJSON = Document(Array("[]".utf8))
        var categoryJSON: [String: Document] = [:]
        /// Fake-Store documents by the `Host` they were built for (their image URLs are absolute).
        var fakeStore: [String: FakeStoreDocuments] = [:]
        /// The snapshot they were encoded from.
        var snapshot = Catalog.Snapshot()
    }

    struct FakeStoreDocuments: Sendable {
        var products: Document
        var product: [ProductID: Document]
        var category: [String: Document]
    }

    /// `[]`, for lists with nothing in them.
    static let emptyList = Document(Array("[]".utf8))

    private let documents = Locked(Documents())

    /// Documents for `catalog`, encoded now and again for each of its snapshots.
    init(catalog: Catalog) throws {
        try catalog.onChange { [documents] snapshot in
            let fresh = try Self.build(snapshot)
            documents.withLock { $0 = fresh }
        }
    }

    /// One value of the current documents, read under the lock without copying the rest of them.
    func read<Value>(_ body: (Documents) -> Value) -> Value {
        documents.withLock { body($0) }
    }

    /// The Fake-Store documents for `host`, built on first use and kept (for a bounded set of hosts).
    func fakeStoreDocuments(host: String) throws -> FakeStoreDocuments {
        if let built = read({ $0.fakeStore[host] }) { return built }
        let snapshot = read { $0.snapshot }
        let built = try Self.buildFakeStore(snapshot, host: host)
        documents.withLock { documents in
            if documents.fakeStore.count >= 16 { documents.fakeStore.removeAll() }
            if documents.snapshot.generation == snapshot.generation { documents.fakeStore[host] = built }
        }
        return built
    }

    static func build(_ snapshot: Catalog.Snapshot) throws -> Documents {
        let encoder = StoreJSON.encoder
        var documents = Documents(snapshot: snapshot)
        let bodies = snapshot.products.map(ProductBody.init)
        documents.productsJSON = try Document(encoding: bodies, with: encoder)
        for body in bodies { documents.productJSON[ProductID(body.id)] = try Document(encoding: body, with: encoder) }
        documents.categoriesJSON = try Document(encoding: snapshot.categories, with: encoder)
        for category in snapshot.categories {
            documents.categoryJSON[category] = try Document(
                encoding: bodies.filter { $0.category == category }, with: encoder)
        }
        return documents
    }

    static func buildFakeStore(_ snapshot: Catalog.Snapshot, host: String) throws -> FakeStoreDocuments {
        let encoder = StoreJSON.encoder
        let bodies = snapshot.products.map { FakeStoreProduct($0, imageBase: "http://\(host)") }
        var documents = FakeStoreDocuments(
            products: try Document(encoding: bodies, with: encoder), product: [:], category: [:])
        for body in bodies { documents.product[ProductID(body.id)] = try Document(encoding: body, with: encoder) }
        for category in snapshot.categories {
            documents.category[category] = try Document(
                encoding: bodies.filter { $0.category == category }, with: encoder)
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

    /// The document as a response.
    var response: Response { Response(prepared: prepared) }
}
