import CheckoutKit
import Foundation
import HTTPServer
import StoreAPI
import StoreCrypto

/// The catalog and product images: public, cached, answered on the server's network threads
/// without waiting on the database.
struct CatalogRoutes: Sendable {
    let cache: CatalogCache
    let images: [String: [UInt8]]

    func register(on routes: inout RouteTable) {
        routes.open(Endpoints.products, .immediate { _, _ in json(cache.read { $0.productsJSON }) })
        routes.open(
            Endpoints.product,
            .immediate { _, context in
                let id = try context.parameter(ProductID.self)
                guard let body = cache.read({ $0.productJSON[id] }) else { throw HTTPError.productNotFound }
                return json(body)
            })
        routes.open(Endpoints.categories, .immediate { _, _ in json(cache.read { $0.categoriesJSON }) })
        routes.open(
            Endpoints.categoryProducts,
            .immediate { _, context in
                let name = try context.parameter(CategoryName.self).text
                guard let body = cache.read({ $0.categoryJSON[name] }) else { throw HTTPError.categoryNotFound }
                return json(body)
            })
        let tags = images.mapValues { "\"" + SHA256.hexDigest($0).prefix(16) + "\"" }
        routes.open(
            Endpoints.image,
            .immediate { request, context in
                let file = try context.parameter(ImageFileName.self).text
                guard let bytes = images[file], let tag = tags[file] else { throw HTTPError.imageNotFound }
                var response =
                    matches(request.headers["If-None-Match"], tag: tag)
                    ? Response(status: .notModified) : Response.bytes(bytes, contentType: "image/svg+xml")
                response.headers.replaceOrAdd(name: "Cache-Control", value: "public, max-age=86400")
                response.headers.replaceOrAdd(name: "ETag", value: tag)
                return response
            })
    }
}

/// Whether an `If-None-Match` header names `tag`: `*`, or a comma-separated list of entity tags,
/// weak (`W/"…"`) or strong, compared weakly as RFC 9110 §13.1.2 asks.
func matches(_ header: String?, tag: String) -> Bool {
    guard let header else { return false }
    return header.split(separator: ",").contains { candidate in
        let trimmed = candidate.trimmingCharacters(in: .whitespaces)
        return trimmed == "*" || (trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed) == tag
    }
}

/// A cached JSON document as a response.
func json(_ document: Document) -> Response {
    document.response
}
