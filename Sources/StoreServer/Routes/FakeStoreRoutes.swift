import CheckoutKit
import Foundation
import HTTPServer
import StoreAPI
import StoreCrypto
import StoreDatabase
import StoreServices

/// The Fake-Store-compatible routes, so an app written against that public API runs against this
/// store by changing only the host: that API's shapes (plain-number prices, absolute image URLs,
/// `name{firstname,lastname}`), backed by the store's real catalog, baskets and customers.
struct FakeStoreRoutes: Sendable {
    let cache: CatalogCache
    let sessions: Sessions
    let baskets: BasketService
    let login: Login
    let accounts: AccountService
    let clock: StoreClock
    /// The host used for image URLs when a request's `Host` header is missing or unusable.
    let fallbackHost: @Sendable () -> String

    func register(on routes: inout RouteTable) {
        routes.open(
            FakeStoreEndpoints.products,
            .immediate { request, _ in json(try documents(for: request).products) })
        routes.open(
            FakeStoreEndpoints.categories,
            .immediate { _, _ in json(cache.read { $0.categoriesJSON }) })
        routes.open(
            FakeStoreEndpoints.category,
            .immediate { request, context in
                // That API answers an unknown category with an empty list.
                let name = (try? context.parameter(CategoryName.self))?.text ?? ""
                return json(try documents(for: request).category[name] ?? CatalogCache.emptyList)
            })
        routes.open(
            FakeStoreEndpoints.product,
            .immediate { request, context in
                let id = try context.parameter(ProductID.self)
                guard let body = try documents(for: request).product[id] else { throw HTTPError.productNotFound }
                return json(body)
            })
        routes.open(FakeStoreEndpoints.login) { request, _ in
            let body = try request.decodeJSON(FakeStoreLoginRequest.self)
            let customer = try await login.authenticate(
                email: body.username, password: body.password, address: request.clientAddress)
            let token = try await sessions.createForCustomer(customer.id, previous: nil)
            return try respond(FakeStoreLoginResponse(token: token.text))
        }
        routes.open(FakeStoreEndpoints.user) { request, context in
            // The demo customers to anyone (the product-list app reads /users/1 with no token), every
            // other customer only to themselves; anyone else's is "not found".
            let viewer = try await sessions.shopper(for: request)
            guard let customer = try await accounts.customer(try context.parameter(CustomerID.self), seenBy: viewer)
            else { throw HTTPError.userNotFound }
            var response = try respond(
                FakeStoreUser(
                    id: customer.id.rawValue, email: customer.email, username: customer.email,
                    name: FakeStoreUser.Name(firstname: customer.firstName, lastname: customer.lastName)))
            if viewer != nil { response.headers.replaceOrAdd(name: "Vary", value: "Authorization") }
            return response
        }
        routes.open(FakeStoreEndpoints.carts) { request, _ in try await postCart(request) }
    }

    /// The most lines one cart may hold (the catalog has far fewer products).
    static let maximumCartLines = 50

    /// Puts the cart's lines into a basket: the caller's, with a bearer token, or else a new
    /// anonymous shopper's, whose token comes back in the `X-Session-Token` header so the cart can
    /// be paid through the native API. The lines are set in one transaction: on any error nothing
    /// changes, and no shopper is created.
    private func postCart(_ request: Request) async throws -> Response {
        let cart = try request.decodeJSON(FakeStoreCartRequest.self)
        guard cart.products.count <= Self.maximumCartLines else {
            throw HTTPError(
                .unprocessableContent, type: "too_many_lines",
                message: "A cart holds at most \(Self.maximumCartLines) lines.", field: "products")
        }
        var lines: [(ProductID, Quantity)] = []
        var seen: Set<Int64> = []
        for (index, line) in cart.products.enumerated() {
            guard line.productId > 0, seen.insert(line.productId).inserted else {
                throw HTTPError.invalidBody(
                    line.productId > 0 ? "Each product may appear once in a cart." : "There is no such product.",
                    field: "products[\(index)].productId")
            }
            guard let quantity = Quantity(line.quantity) else {
                throw HTTPError.invalidQuantity(field: "products[\(index)].quantity")
            }
            lines.append((ProductID(line.productId), quantity))
        }
        var newToken: SecretToken?
        let shopper: Shopper
        do {
            if let existing = try await sessions.shopper(for: request) {
                try await baskets.setLines(lines, for: existing)
                shopper = existing
            } else if request.headers["Authorization"] != nil {
                throw HTTPError.unauthorized
            } else {
                let token = try await sessions.createAnonymous(from: request.clientAddress, lines: lines)
                guard let created = try await sessions.shopper(for: token) else { throw HTTPError.unauthorized }
                shopper = created
                newToken = token
            }
        } catch let error as BasketLineError {
            switch error {
            case .unknownProduct(let index):
                throw HTTPError.invalidBody("There is no such product.", field: "products[\(index)].productId")
            case .insufficientStock(let index, let available):
                throw HTTPError.insufficientStock(available: available, field: "products[\(index)].quantity")
            }
        }
        let body = FakeStoreCart(
            id: Self.cartNumber(for: shopper.id), userId: shopper.customerID?.rawValue ?? cart.userId,
            date: clock.now().formatted(.iso8601), products: cart.products)
        var response = try respond(body, status: .created)
        if let newToken { response.headers.replaceOrAdd(name: "X-Session-Token", value: newToken.text) }
        return response
    }

    /// A stable number for a shopper's basket (that API numbers carts), derived from the shopper's
    /// opaque id so it reveals nothing about other carts.
    static func cartNumber(for shopper: ShopperID) -> Int64 {
        let digest = SHA256.digest(Array(shopper.rawValue.utf8))
        return digest.prefix(6).reduce(Int64(0)) { $0 << 8 | Int64($1) } + 1
    }

    private func documents(for request: Request) throws -> CatalogCache.FakeStoreDocuments {
        try cache.fakeStoreDocuments(host: Self.usableHost(request.headers["Host"]) ?? fallbackHost())
    }

    /// The `Host` header when it is a plausible host[:port] (letters, digits, `.-:[]`), else `nil`,
    /// so nothing odd from a request ends up inside a URL the store hands out.
    static func usableHost(_ host: String?) -> String? {
        guard let host, !host.isEmpty, host.utf8.count <= 255,
            host.utf8.allSatisfy({ byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"),
                    UInt8(ascii: "["), UInt8(ascii: "]"):
                    true
                default:
                    false
                }
            })
        else { return nil }
        return host
    }
}
