import CheckoutKit
import Concurrency
import HTML
import HTTPServer
import StoreServices
import StoreViews

/// The catalog's pages: the catalog by category with search and sorting, a product's page, and the
/// stylesheet every page links to.
struct CatalogPages: Sendable {
    let storefront: Storefront
    /// The catalog page of a visitor without a session, rendered once per catalog snapshot.
    let anonymousCatalog = AnonymousCatalogPage()

    func register(on routes: inout RouteTable) {
        routes.page(.get, StorePaths.stylesheet, .immediate { _, _ in Response(prepared: Self.stylesheet) })
        routes.page(
            .get, StorePaths.catalog,
            .immediateOrAsync(
                { request, _ in anonymousCatalogPage(request) }, { request, _ in try await catalogPage(request) }))
        routes.page(.get, StorePaths.productPattern) { request, context in try await productPage(request, context) }
    }

    static let stylesheet = PreparedResponse(
        {
            var response = Response.bytes(Array(StoreStylesheet.css.utf8), contentType: "text/css; charset=utf-8")
            response.headers["Cache-Control"] = "public, max-age=3600"
            return response
        }())

    /// The catalog page of a visitor without a session or status to show, asking for the whole
    /// catalog — most first visits: the same page for everyone, prepared once per catalog
    /// snapshot and sent from the network thread. `nil` for any other visit.
    private func anonymousCatalogPage(_ request: Request) -> Response? {
        guard request.queryItems.isEmpty, request.cookie(WebSessions.sessionCookie) == nil,
            request.cookie(WebSessions.statusCookie) == nil
        else { return nil }
        let (generation, products, categories) = storefront.catalog.read { ($0.generation, $0.products, $0.categories) }
        return Response(
            prepared: anonymousCatalog.page(for: generation) {
                let page = CatalogPage(
                    query: CatalogQuery(), categories: categories, products: products.map { ProductSummary($0) })
                return Storefront.html(StorePages.catalog(page, context: PageContext(csrfToken: "")), private: false)
            })
    }

    private func catalogPage(_ request: Request) async throws -> Response {
        let query = CatalogQuery(parameters: Storefront.parameters(request.queryItems))
        let (products, categories) = storefront.catalog.read { ($0.products, $0.categories) }
        let visit = try await storefront.visit(request)
        let page = CatalogPage(query: query, categories: categories, products: products.map { ProductSummary($0) })
        return visit.respond(StorePages.catalog(page, context: visit.context))
    }

    private func productPage(_ request: Request, _ context: RequestContext) async throws -> Response {
        let visit = try await storefront.visit(request)
        guard let id = try? context.parameter(ProductID.self),
            let product = storefront.catalog.read({ $0.product(id) })
        else { return visit.notFound() }
        let inBasket = visit.basket?.lines.first { $0.productID == id }?.quantity.value ?? 0
        let page = ProductPage(
            product: ProductSummary(product), description: product.description, quantityInBasket: inBasket)
        return visit.respond(StorePages.product(page, context: visit.context))
    }
}

/// The catalog page as a visitor without a session sees it, rendered once per catalog snapshot.
final class AnonymousCatalogPage: Sendable {
    private let cached = Locked<(generation: Int, page: PreparedResponse)?>(nil)

    func page(for generation: Int, render: () -> Response) -> PreparedResponse {
        if let hit = cached.withLock({ $0 }), hit.generation == generation { return hit.page }
        let page = PreparedResponse(render())
        cached.withLock { $0 = (generation, page) }
        return page
    }
}
