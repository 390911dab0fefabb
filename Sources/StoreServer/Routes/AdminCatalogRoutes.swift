import CheckoutKit
import HTTPServer
import StoreAPI
import StoreDatabase
import StoreServices

/// The back office's products and stock as JSON (docs/BEHAVIOUR.md §13.5–§13.6).
struct AdminCatalogRoutes: Sendable {
    let catalog: CatalogManagement

    func register(on routes: inout RouteTable) {
        routes.staff(AdminEndpoints.products) { request, _ in
            let offset = try Self.count(request.query("offset"), name: "offset") ?? 0
            let limit = try Self.count(request.query("limit"), name: "limit") ?? 50
            guard (1...CatalogManagement.maximumPageSize).contains(limit) else {
                throw HTTPError.invalidQuery("limit", "A limit is from 1 to \(CatalogManagement.maximumPageSize).")
            }
            let search = request.query("q")
            guard (search?.unicodeScalars.count ?? 0) <= CatalogManagement.maximumSearchLength else {
                throw HTTPError.invalidQuery(
                    "q", "A search has at most \(CatalogManagement.maximumSearchLength) characters.")
            }
            let page = try await catalog.products(search: search, offset: offset, limit: limit)
            return try respond(
                AdminProductList(
                    products: page.products.map(AdminProductBody.init), total: page.total, offset: offset,
                    limit: limit))
        }
        routes.staff(AdminEndpoints.createProduct) { request, caller in
            let body = try request.decodeJSON(NewProductRequest.self)
            let details = ProductDetails(
                sku: body.sku, title: body.title, description: body.description, category: body.category,
                price: body.price, active: body.active ?? true)
            let created = try await catalog.create(details, by: caller.staff)
            return try respond(AdminProductBody(created), status: .created)
        }
        routes.staff(AdminEndpoints.product) { _, caller in
            guard let product = try await catalog.product(try caller.parameter(ProductID.self)) else {
                throw HTTPError.productNotFound
            }
            return try respond(AdminProductBody(product))
        }
        routes.staff(AdminEndpoints.changeProduct) { request, caller in
            let id = try caller.parameter(ProductID.self)
            let body = try request.decodeJSON(ProductChangeRequest.self)
            guard let current = try await catalog.product(id) else { throw HTTPError.productNotFound }
            let old = current.details
            let details = ProductDetails(
                sku: body.sku ?? old.sku, title: body.title ?? old.title,
                description: body.description ?? old.description, category: body.category ?? old.category,
                price: body.price ?? old.price, active: body.active ?? old.active)
            do {
                return try respond(
                    AdminProductBody(try await catalog.update(id, from: body.version, to: details, by: caller.staff)))
            } catch ProductChangeError.editConflict(let now) {
                let error = ProductChangeError.editConflict(current: now).httpError
                var response = try Response.json(
                    EditConflictBody(
                        error: ErrorBody.Detail(type: error.type, message: error.message),
                        current: AdminProductBody(now)),
                    status: error.status, encoder: StoreJSON.encoder)
                response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
                return response
            }
        }
        routes.staff(AdminEndpoints.stockMovements) { request, caller in
            let id = try caller.parameter(ProductID.self)
            guard try await catalog.product(id) != nil else { throw HTTPError.productNotFound }
            let before = try Self.count(request.query("before"), name: "before").map(Int64.init)
            return try respond(
                try await catalog.movements(of: id, before: before, limit: 50).map(StockMovementBody.init))
        }
        routes.staff(AdminEndpoints.adjustStock) { request, caller in
            let id = try caller.parameter(ProductID.self)
            let body = try request.decodeJSON(StockAdjustmentRequest.self)
            guard let reason = StockReason(rawValue: body.reason), StockReason.staffReasons.contains(reason) else {
                throw StockAdjustmentError.invalidReason
            }
            let adjustment = try StockAdjustment(change: body.change, reason: reason, note: body.note)
            var key: IdempotencyKey?
            if let sent = request.headers["Idempotency-Key"] {
                guard let valid = IdempotencyKey(rawValue: sent) else { throw HTTPError.invalidIdempotencyKey }
                key = valid
            }
            let (product, movement) = try await catalog.adjustStock(id, adjustment, key: key, by: caller.staff)
            return try respond(
                StockAdjustmentBody(stock: product.stock, movement: StockMovementBody(movement)), status: .created)
        }
    }

    /// A whole number from 0 read from the query, `nil` when absent.
    static func count(_ text: String?, name: String) throws(HTTPError) -> Int? {
        guard let text else { return nil }
        if text == "0" { return 0 }
        guard let value = Int64(positiveDecimal: text), value <= Int64(Int32.max) else {
            throw HTTPError.invalidQuery(name, "\(name) is a whole number from 0.")
        }
        return Int(value)
    }
}

extension AdminProductBody {
    init(_ product: ManagedProduct) {
        let details = product.details
        self.init(
            id: product.id.rawValue, sku: details.sku, title: details.title, description: details.description,
            category: details.category, price: details.price, stock: product.stock, active: details.active,
            version: product.version, image: product.imagePath, updatedAt: product.updatedAt.map(StoreJSON.timestamp),
            updatedBy: product.updatedBy)
    }
}

extension StockMovementBody {
    init(_ movement: StockMovement) {
        self.init(
            id: movement.id, change: movement.change, reason: movement.reason.rawValue, note: movement.note,
            actor: movement.actor, orderID: movement.orderID?.rawValue, stockAfter: movement.stockAfter,
            at: StoreJSON.timestamp(movement.at))
    }
}
