import CheckoutKit
import Concurrency
import Foundation
import HTTPServer
import StoreAPI
import StoreDatabase

/// The catalog as ready-to-send JSON, so reading it never waits on the database.
///
/// The snapshot is rebuilt from the database every ``StoreConfiguration/catalogRefreshInterval``
/// (so stock sold through another server shows up within that time) and at once after this
/// server changes stock. Readers take the current snapshot under a lock held for a pointer copy.
final class CatalogCache: Sendable {
    /// One consistent view of the catalog and its encoded documents.
    struct Snapshot: Sendable {
        /// Counts the snapshots made: documents derived from one can tell when it was replaced.
        var generation = 0
        var products: [Product] = []
        var categories: [String] = []
        var productsJSON = Document(Array("[]".utf8))
        var productJSON: [ProductID: Document] = [:]
        var categoriesJSON = Document(Array("[]".utf8))
        var categoryJSON: [String: Document] = [:]
        /// Fake-Store documents by the `Host` they were built for (their image URLs are absolute).
        var fakeStore: [String: FakeStoreDocuments] = [:]
    }

    struct FakeStoreDocuments: Sendable {
        var products: Document
        var product: [ProductID: Document]
        var category: [String: Document]
    }

    /// `[]`, for lists with nothing in them.
    static let emptyList = Document(Array("[]".utf8))

    private let database: StoreDatabase
    private let snapshot = Locked(Snapshot())

    init(database: StoreDatabase) {
        self.database = database
    }

    var current: Snapshot { snapshot.current }

    /// One value of the current snapshot, read under the lock without copying the rest of it.
    func read<Value>(_ body: (Snapshot) -> Value) -> Value {
        snapshot.withLock { body($0) }
    }

    /// Reads the catalog and replaces the snapshot if anything changed.
    func refresh() async throws {
        let products = try await database.catalog.products()
        let categories = try await database.catalog.categories()
        let old = snapshot.current
        guard products != old.products || categories != old.categories else { return }
        var fresh = try Self.build(products: products, categories: categories)
        snapshot.withLock { current in
            fresh.generation = current.generation + 1
            current = fresh
        }
    }

    /// Asks for a refresh soon: changes that come close together (a burst of checkouts) are read
    /// and encoded once, after `delay`, instead of once each.
    func refreshSoon(after delay: Duration = .milliseconds(100)) {
        let schedule = refreshScheduled.withLock { scheduled in
            defer { scheduled = true }
            return !scheduled
        }
        guard schedule else { return }
        Task { [weak self] in
            try? await Task.sleep(for: delay)
            // Cleared before reading, so a change made during the read schedules another refresh.
            self?.refreshScheduled.withLock { $0 = false }
            try? await self?.refresh()
        }
    }

    private let refreshScheduled = Locked(false)

    /// Refreshes every `interval` until the task is cancelled; failures are retried next time.
    func refreshPeriodically(every interval: Duration) -> Task<Void, Never> {
        Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                try? await self?.refresh()
            }
        }
    }

    /// The Fake-Store documents for `host`, built on first use and kept (for a bounded set of hosts).
    func fakeStoreDocuments(host: String) throws -> FakeStoreDocuments {
        if let documents = read({ $0.fakeStore[host] }) { return documents }
        let current = snapshot.current
        let documents = try Self.buildFakeStore(products: current.products, categories: current.categories, host: host)
        snapshot.withLock { snapshot in
            if snapshot.fakeStore.count >= 16 { snapshot.fakeStore.removeAll() }
            if snapshot.products == current.products { snapshot.fakeStore[host] = documents }
        }
        return documents
    }

    static func build(products: [Product], categories: [String]) throws -> Snapshot {
        let encoder = StoreJSON.encoder
        var snapshot = Snapshot(products: products, categories: categories)
        let bodies = products.map(ProductBody.init)
        snapshot.productsJSON = try Document(encoding: bodies, with: encoder)
        for body in bodies { snapshot.productJSON[ProductID(body.id)] = try Document(encoding: body, with: encoder) }
        snapshot.categoriesJSON = try Document(encoding: categories, with: encoder)
        for category in categories {
            snapshot.categoryJSON[category] = try Document(
                encoding: bodies.filter { $0.category == category }, with: encoder)
        }
        return snapshot
    }

    static func buildFakeStore(products: [Product], categories: [String], host: String) throws -> FakeStoreDocuments {
        let encoder = StoreJSON.encoder
        let bodies = products.map { FakeStoreProduct($0, imageBase: "http://\(host)") }
        var documents = FakeStoreDocuments(
            products: try Document(encoding: bodies, with: encoder), product: [:], category: [:])
        for body in bodies { documents.product[ProductID(body.id)] = try Document(encoding: body, with: encoder) }
        for category in categories {
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
