import CheckoutKit
import Foundation
import StoreDatabase

/// The back office's catalog (docs/BEHAVIOUR.md §13.5–§13.6): products added, edited and archived,
/// their stock adjusted through the ledger. Every change is checked by ``ProductRules`` (whatever
/// face it came through), written with its audit line, and shown by the shop at once: this server's
/// catalog snapshot is read again before the change is answered.
package struct CatalogManagement: Sendable {
    package let database: StoreDatabase
    package let catalog: Catalog
    package let currency: Currency
    package let clock: StoreClock

    package init(database: StoreDatabase, catalog: Catalog, currency: Currency, clock: StoreClock) {
        self.database = database
        self.catalog = catalog
        self.currency = currency
        self.clock = clock
    }

    /// The most products one page lists.
    package static let maximumPageSize = 200
    /// The longest search, in Unicode scalars (as JSON Schema counts a query's length).
    package static let maximumSearchLength = 200

    /// Products by id, archived too, matching `search` in title, SKU or category.
    package func products(search: String?, offset: Int, limit: Int) async throws -> ManagedProductPage {
        try await database.products.list(
            search: search, offset: max(0, offset), limit: min(max(1, limit), Self.maximumPageSize))
    }

    package func product(_ id: ProductID) async throws -> ManagedProduct? {
        try await database.products.product(id)
    }

    package func categories() async throws -> [String] {
        try await database.products.categories()
    }

    /// Adds a product with no stock.
    ///
    /// - Throws: ``ProductDetailsError`` (every problem, by field), ``ProductChangeError``.
    package func create(_ details: ProductDetails, by staff: StaffRecord) async throws -> ManagedProduct {
        let created = try await database.products.create(try checked(details), by: staff.actor, now: clock.now())
        await catalogChanged()
        return created
    }

    /// Changes product `id`'s details from `version`.
    ///
    /// - Throws: ``ProductDetailsError``, ``ProductChangeError`` (`editConflict` with the product as
    ///   it is now when another edit came first).
    package func update(
        _ id: ProductID, from version: Int64, to details: ProductDetails, by staff: StaffRecord
    ) async throws -> ManagedProduct {
        let updated = try await database.products.update(
            id, from: version, to: try checked(details), by: staff.actor, now: clock.now())
        await catalogChanged()
        return updated
    }

    /// Moves product `id`'s stock by `adjustment`, once per `key` (see
    /// `ProductRepository.adjustStock(_:_:key:by:now:)`).
    ///
    /// - Throws: ``ProductChangeError/notFound``, ``ProductChangeError/insufficientStock(available:)``,
    ///   ``ProductChangeError/keyReused``.
    package func adjustStock(
        _ id: ProductID, _ adjustment: StockAdjustment, key: IdempotencyKey? = nil, by staff: StaffRecord
    ) async throws -> (product: ManagedProduct, movement: StockMovement) {
        let result = try await database.products.adjustStock(
            id, adjustment, key: key, by: staff.actor, now: clock.now())
        await catalogChanged()
        return result
    }

    /// The newest lines of product `id`'s stock ledger first.
    package func movements(of id: ProductID, before: Int64?, limit: Int) async throws -> [StockMovement] {
        try await database.products.movements(of: id, before: before, limit: min(max(1, limit), Self.maximumPageSize))
    }

    /// `details` as the rules have them (trimmed), or every problem.
    private func checked(_ details: ProductDetails) throws(ProductDetailsError) -> ProductDetails {
        try ProductRules.details(
            sku: details.sku, title: details.title, description: details.description, category: details.category,
            price: details.price, active: details.active, currency: currency
        ).get()
    }

    /// Reads the catalog again so the next page this server answers shows the change. The change
    /// is committed either way: a failed read is retried by the periodic refresh.
    private func catalogChanged() async {
        try? await catalog.refresh()
    }
}
