import CheckoutKit
import Foundation
import StoreDatabase

/// A customer as the back office shows them: their record, order count and spending, and their
/// tier decided now from their cached subscription facts (docs/BEHAVIOUR.md §6) — a local read.
package struct CustomerOverview: Hashable, Sendable {
    package let customer: CustomerSummary
    package let tier: Tier
}

/// The back office's customers (docs/BEHAVIOUR.md §13.10): read only — searched, paged, each with
/// their orders newest first. Reading writes nothing, not even an audit line.
package struct CustomerDirectory: Sendable {
    package let database: StoreDatabase
    /// The shop's currency: what customers spent is summed in it.
    package let currency: Currency
    package let clock: StoreClock

    package init(database: StoreDatabase, currency: Currency, clock: StoreClock) {
        self.database = database
        self.currency = currency
        self.clock = clock
    }

    /// The most rows one page lists.
    package static let maximumPageSize = 200

    /// Customers by id whose email or name contains `search`, with how many match in all.
    package func customers(
        search: String?, offset: Int, limit: Int
    ) async throws -> (customers: [CustomerOverview], total: Int) {
        let page = try await database.backOffice.customers(
            search: search, offset: max(0, offset), limit: Self.pageSize(limit), currency: currency)
        let now = clock.now()
        return (page.customers.map { CustomerOverview(customer: $0, tier: $0.subscription.tier(at: now)) }, page.total)
    }

    /// Customer `id`, if there is one.
    package func customer(_ id: CustomerID) async throws -> CustomerOverview? {
        guard let customer = try await database.backOffice.customer(id, currency: currency) else { return nil }
        return CustomerOverview(customer: customer, tier: customer.subscription.tier(at: clock.now()))
    }

    /// Customer `id`'s orders, newest first, with how many they have in all.
    package func orders(of id: CustomerID, offset: Int, limit: Int) async throws -> CustomerOrderPage {
        try await database.backOffice.orders(of: id, offset: max(0, offset), limit: Self.pageSize(limit))
    }

    private static func pageSize(_ limit: Int) -> Int {
        min(max(1, limit), maximumPageSize)
    }
}
