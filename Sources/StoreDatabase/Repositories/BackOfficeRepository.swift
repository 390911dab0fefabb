import CheckoutKit
import Foundation
import StoreSQL

/// A customer as the back office lists them: who they are, their subscription facts (the tier is
/// decided from them at the moment it is shown), and what they have ordered.
public struct CustomerSummary: Hashable, Sendable, Identifiable {
    public let id: CustomerID
    public let email: String
    public let firstName: String
    public let lastName: String
    public let subscription: SubscriptionFacts
    public let createdAt: Date
    /// Their orders, whatever became of them since.
    public let orderCount: Int
    /// What their orders charged in the shop's currency, fees included (refunds are not taken off).
    public let totalSpent: Money

    /// First and last name.
    public var name: String { [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ") }
}

/// One page of customers, and how many match over every page.
public struct CustomerSummaryPage: Hashable, Sendable {
    public let customers: [CustomerSummary]
    public let total: Int
}

/// One order as a customer's page lists it.
public struct CustomerOrderSummary: Hashable, Sendable, Identifiable {
    public let id: OrderID
    public let placedAt: Date
    /// What was charged, fee included.
    public let total: Money
    /// Paid, partially refunded or refunded, as the order list says it (``OrderAdminRepository``).
    public let paymentStatus: PaymentStatus
    public let fulfilment: FulfilmentStatus
}

/// One page of a customer's orders, newest first, and how many they have in all.
public struct CustomerOrderPage: Hashable, Sendable {
    public let orders: [CustomerOrderSummary]
    public let total: Int
}

/// The dashboard's figures, read in one transaction so they agree with each other.
public struct DashboardFigures: Hashable, Sendable {
    /// Orders placed in the day asked for.
    public let ordersToday: Int
    /// What those orders charged in the shop's currency, fees included.
    public let revenueToday: Money
    /// Orders not yet packed (fulfilment `unfulfilled`).
    public let ordersToPack: Int
    /// Active products with 1 to ``CheckoutKit/StockLevel/lowStockThreshold`` units, fewest first
    /// (at most the limit asked for), and how many there are in all.
    public let lowStock: [ManagedProduct]
    public let lowStockCount: Int
    /// Active products with no units, by title (at most the limit asked for), and how many in all.
    public let soldOut: [ManagedProduct]
    public let soldOutCount: Int
}

/// What the back office reads about customers and the shop's day (docs/BEHAVIOUR.md §13.10–§13.11).
/// Reads only: nothing here changes the shop or writes to the audit log.
public struct BackOfficeRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Customers by id whose email or name contains `search` (any case), `limit` of them from
    /// `offset`, with their order count and what they spent in `currency`.
    public func customers(
        search: String?, offset: Int, limit: Int, currency: Currency
    ) async throws -> CustomerSummaryPage {
        let filter: SQLQuery
        if let search = search?.trimmingCharacters(in: .whitespaces), !search.isEmpty {
            let pattern = "%" + ProductRepository.likeEscaped(search.lowercased()) + "%"
            filter = """
                WHERE LOWER(c.email) LIKE \(pattern) ESCAPE '\\'
                   OR LOWER(c.first_name || ' ' || c.last_name) LIKE \(pattern) ESCAPE '\\'
                """
        } else {
            filter = ""
        }
        return try await database.read { connection in
            // The count and the page at one moment (one round trip on PostgreSQL).
            let answers = try connection.queryTogether([
                "SELECT COUNT(*) AS n FROM customers c \(filter)",
                """
                SELECT \(Self.customerColumns(currency)) FROM customers c \(filter)
                ORDER BY c.id LIMIT \(limit) OFFSET \(offset)
                """,
            ])
            return CustomerSummaryPage(
                customers: try answers[1].map { try Self.customer($0, currency: currency) },
                total: try answers.first?.first?.decode("n", as: Int.self) ?? 0)
        }
    }

    /// The customer `id` with their order count and what they spent in `currency`, if any.
    public func customer(_ id: CustomerID, currency: Currency) async throws -> CustomerSummary? {
        try await database.read { connection in
            try connection.queryFirst(
                "SELECT \(Self.customerColumns(currency)) FROM customers c WHERE c.id = \(id.rawValue)"
            ).map { try Self.customer($0, currency: currency) }
        }
    }

    /// Customer `id`'s orders, newest first, `limit` of them from `offset`.
    public func orders(of id: CustomerID, offset: Int, limit: Int) async throws -> CustomerOrderPage {
        try await database.read { connection in
            let answers = try connection.queryTogether([
                """
                SELECT COUNT(*) AS n FROM orders o JOIN shoppers s ON s.id = o.shopper_id
                WHERE s.customer_id = \(id.rawValue)
                """,
                """
                SELECT o.id, o.created_at, o.total_minor, o.currency, o.fulfilment_status,
                       \(OrderAdminRepository.paymentStatus) AS payment_status
                FROM orders o JOIN shoppers s ON s.id = o.shopper_id
                WHERE s.customer_id = \(id.rawValue)
                ORDER BY o.created_at DESC, o.id DESC LIMIT \(limit) OFFSET \(offset)
                """,
            ])
            return CustomerOrderPage(
                orders: try answers[1].map(Self.order),
                total: try answers.first?.first?.decode("n", as: Int.self) ?? 0)
        }
    }

    /// The dashboard's figures for the day `day` (orders placed at or after its start, before its
    /// end), revenue in `currency`, and at most `listLimit` products in each stock list.
    public func dashboard(
        day: DateInterval, currency: Currency, lowStockThreshold: Int, listLimit: Int
    ) async throws -> DashboardFigures {
        let (start, end) = (day.start.unixMilliseconds, day.end.unixMilliseconds)
        let low: SQLQuery = "p.active = 1 AND p.stock BETWEEN 1 AND \(lowStockThreshold)"
        let out: SQLQuery = "p.active = 1 AND p.stock = 0"
        return try await database.read { connection in
            // Every figure at one moment (one round trip on PostgreSQL).
            let answers = try connection.queryTogether([
                """
                SELECT COUNT(*) AS n,
                       CAST(COALESCE(SUM(CASE WHEN currency = \(currency.code) THEN total_minor ELSE 0 END), 0)
                            AS BIGINT) AS revenue
                FROM orders WHERE created_at >= \(start) AND created_at < \(end)
                """,
                "SELECT COUNT(*) AS n FROM orders WHERE fulfilment_status = 'unfulfilled'",
                """
                SELECT (SELECT COUNT(*) FROM products p WHERE \(low)) AS low,
                       (SELECT COUNT(*) FROM products p WHERE \(out)) AS sold_out
                """,
                """
                SELECT \(ProductRepository.columns) FROM products p WHERE \(low)
                ORDER BY p.stock, p.title, p.id LIMIT \(listLimit)
                """,
                """
                SELECT \(ProductRepository.columns) FROM products p WHERE \(out)
                ORDER BY p.title, p.id LIMIT \(listLimit)
                """,
            ])
            let (today, toPack, counts) = (answers[0].first, answers[1].first, answers[2].first)
            return DashboardFigures(
                ordersToday: try today?.decode("n", as: Int.self) ?? 0,
                revenueToday: Money(minorUnits: try today?.decode("revenue", as: Int64.self) ?? 0, currency: currency),
                ordersToPack: try toPack?.decode("n", as: Int.self) ?? 0,
                lowStock: try answers[3].map(ProductRepository.read),
                lowStockCount: try counts?.decode("low", as: Int.self) ?? 0,
                soldOut: try answers[4].map(ProductRepository.read),
                soldOutCount: try counts?.decode("sold_out", as: Int.self) ?? 0)
        }
    }

    /// A customer's columns with their order count and what they spent in `currency` (one shopper
    /// per customer, so their orders are their shopper's).
    static func customerColumns(_ currency: Currency) -> SQLQuery {
        """
        c.id, c.email, c.first_name, c.last_name, c.subscription_expires_at, c.subscription_auto_renew, c.created_at,
        (SELECT COUNT(*) FROM orders o JOIN shoppers s ON s.id = o.shopper_id WHERE s.customer_id = c.id)
            AS order_count,
        (SELECT CAST(COALESCE(SUM(o.total_minor), 0) AS BIGINT) FROM orders o JOIN shoppers s ON s.id = o.shopper_id
         WHERE s.customer_id = c.id AND o.currency = \(currency.code)) AS spent_minor
        """
    }

    static func customer(_ row: SQLRow, currency: Currency) throws -> CustomerSummary {
        CustomerSummary(
            id: CustomerID(rawValue: try row.decode("id")), email: try row.decode("email"),
            firstName: try row.decode("first_name"), lastName: try row.decode("last_name"),
            subscription: SubscriptionFacts(
                expiresAt: try row.optionalDate("subscription_expires_at"),
                willAutoRenew: try row.decode("subscription_auto_renew")),
            createdAt: try row.date("created_at"), orderCount: try row.decode("order_count"),
            totalSpent: Money(minorUnits: try row.decode("spent_minor"), currency: currency))
    }

    static func order(_ row: SQLRow) throws -> CustomerOrderSummary {
        guard let fulfilment = FulfilmentStatus(rawValue: try row.decode("fulfilment_status")) else {
            throw DatabaseError.decoding(column: "fulfilment_status", expected: "a fulfilment status")
        }
        return CustomerOrderSummary(
            id: OrderID(rawValue: try row.decode("id")), placedAt: try row.date("created_at"),
            total: try row.money("total_minor"), paymentStatus: try OrderAdminRepository.paymentStatus(row),
            fulfilment: fulfilment)
    }
}
