import CheckoutKit
import StoreDatabase

/// Customers' records as shoppers may see them.
package struct AccountService: Sendable {
    package let database: StoreDatabase

    package init(database: StoreDatabase) {
        self.database = database
    }

    /// The signed-in customer behind `shopper`, or `nil` for an anonymous shopper.
    package func customer(of shopper: Shopper) async throws -> CustomerRecord? {
        guard let id = shopper.customerID else { return nil }
        return try await database.customers.customer(id: id)
    }

    /// Customer `id` as `viewer` may see it: the demo customers (whose passwords are published) to
    /// anyone, every other customer only to themselves; `nil` otherwise.
    package func customer(_ id: CustomerID, seenBy viewer: Shopper?) async throws -> CustomerRecord? {
        guard let customer = try await database.customers.customer(id: id) else { return nil }
        if viewer?.customerID == id || SeedCatalog.demoCustomers.contains(where: { $0.email == customer.email }) {
            return customer
        }
        return nil
    }
}
