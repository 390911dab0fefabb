import CheckoutKit
import Foundation

/// The customers at `/admin/customers`, searched and a page at a time.
public struct AdminCustomerListPage: Hashable, Sendable {
    /// One customer in the table.
    public struct Row: Hashable, Sendable, Identifiable {
        public var id: Int64
        public var email: String
        /// First and last name.
        public var name: String
        public var tier: Tier
        /// Paid orders.
        public var orderCount: Int
        public var joinedAt: Date

        public init(id: Int64, email: String, name: String, tier: Tier, orderCount: Int, joinedAt: Date) {
            self.id = id
            self.email = email
            self.name = name
            self.tier = tier
            self.orderCount = orderCount
            self.joinedAt = joinedAt
        }
    }

    /// The search text (query `q`), matched against email and name; empty for every customer.
    public var search: String
    public var customers: [Row]
    public var paging: AdminPaging

    public init(search: String = "", customers: [Row], paging: AdminPaging) {
        self.search = search
        self.customers = customers
        self.paging = paging
    }
}

/// A customer at `/admin/customers/{id}`: their profile and their orders, newest first.
public struct AdminCustomerPage: Hashable, Sendable {
    public var id: Int64
    public var email: String
    public var name: String
    public var tier: Tier
    public var joinedAt: Date
    /// The page of their orders shown; its total is their order count.
    public var orders: [AdminOrderRow]
    public var paging: AdminPaging

    public init(
        id: Int64, email: String, name: String, tier: Tier, joinedAt: Date, orders: [AdminOrderRow],
        paging: AdminPaging
    ) {
        self.id = id
        self.email = email
        self.name = name
        self.tier = tier
        self.joinedAt = joinedAt
        self.orders = orders
        self.paging = paging
    }
}
