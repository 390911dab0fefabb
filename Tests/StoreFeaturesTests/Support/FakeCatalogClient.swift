import StoreAPI
import StoreClient
import Testing

/// A ``CatalogClient`` that answers only what a test set up; any other call fails the test.
@MainActor
final class FakeCatalogClient: CatalogClient {
    var onProducts: (@MainActor () async -> Result<[ProductBody], StoreClientError>)?
    var onProduct: (@MainActor (Int64) async -> Result<ProductBody, StoreClientError>)?
    var onCategories: (@MainActor () async -> Result<[String], StoreClientError>)?
    var onProductsInCategory: (@MainActor (String) async -> Result<[ProductBody], StoreClientError>)?
    private(set) var productsCalls = 0

    func products() async throws(StoreClientError) -> [ProductBody] {
        productsCalls += 1
        guard let onProducts else { throw unexpectedCall("CatalogClient.products()") }
        return try await onProducts().get()
    }

    func product(id: Int64) async throws(StoreClientError) -> ProductBody {
        guard let onProduct else { throw unexpectedCall("CatalogClient.product(id: \(id))") }
        return try await onProduct(id).get()
    }

    func categories() async throws(StoreClientError) -> [String] {
        guard let onCategories else { throw unexpectedCall("CatalogClient.categories()") }
        return try await onCategories().get()
    }

    func products(inCategory name: String) async throws(StoreClientError) -> [ProductBody] {
        guard let onProductsInCategory else { throw unexpectedCall("CatalogClient.products(inCategory: \(name))") }
        return try await onProductsInCategory(name).get()
    }
}

/// Records an unexpected call as a test failure and gives the error the fake throws for it.
func unexpectedCall(_ call: String, sourceLocation: SourceLocation = #_sourceLocation) -> StoreClientError {
    Issue.record("\(call) was called, but the test did not expect it", sourceLocation: sourceLocation)
    return .unexpectedAnswer(status: nil, detail: "unexpected call to \(call)")
}
