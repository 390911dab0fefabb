import CheckoutKit
import Foundation

// The back office's promotions, customers, dashboard, audit log and staff as its JSON API shows them
// (docs/BEHAVIOUR.md §13.9–§13.13). Instants are ISO 8601 timestamps in UTC; an optional field
// without a value is omitted.

/// A promotion code as the back office lists it: its rules, its use count and where it stands.
public struct AdminPromotionBody: Codable, Hashable, Sendable {
    public var code: String
    /// `percent_off` (with ``percentOff``) or `amount_off` (with ``amountOff``).
    public var kind: PromotionBody.Kind
    public var percentOff: Int?
    public var amountOff: Money?
    public var minimumSubtotal: Money
    public var startsAt: String?
    public var endsAt: String?
    /// How many orders may use it in all; absent for no limit.
    public var usageLimit: Int?
    /// How many paid orders have used it.
    public var timesUsed: Int
    public var disabledAt: String?
    /// `active`, `scheduled` (not started), `expired`, `used_up` or `disabled`.
    public var status: String

    private enum CodingKeys: String, CodingKey {
        case code, kind, status
        case percentOff = "percent_off"
        case amountOff = "amount_off"
        case minimumSubtotal = "minimum_subtotal"
        case startsAt = "starts_at"
        case endsAt = "ends_at"
        case usageLimit = "usage_limit"
        case timesUsed = "times_used"
        case disabledAt = "disabled_at"
    }

    public init(
        code: String, kind: PromotionBody.Kind, percentOff: Int?, amountOff: Money?, minimumSubtotal: Money,
        startsAt: String?, endsAt: String?, usageLimit: Int?, timesUsed: Int, disabledAt: String?, status: String
    ) {
        self.code = code
        self.kind = kind
        self.percentOff = percentOff
        self.amountOff = amountOff
        self.minimumSubtotal = minimumSubtotal
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.usageLimit = usageLimit
        self.timesUsed = timesUsed
        self.disabledAt = disabledAt
        self.status = status
    }

    /// `promotion` as it stands (`status`) now.
    public init(_ promotion: Promotion, status: Promotion.Availability) {
        let shown = PromotionBody(promotion)
        self.init(
            code: shown.code, kind: shown.kind, percentOff: shown.percentOff, amountOff: shown.amountOff,
            minimumSubtotal: shown.minimumSubtotal, startsAt: promotion.startsAt.map(StoreJSON.timestamp),
            endsAt: promotion.endsAt.map(StoreJSON.timestamp), usageLimit: promotion.usageLimit,
            timesUsed: promotion.timesUsed, disabledAt: promotion.disabledAt.map(StoreJSON.timestamp),
            status: Self.status(status))
    }

    /// The wire name of an availability: `active`, `scheduled`, `expired`, `used_up`, `disabled`.
    public static func status(_ availability: Promotion.Availability) -> String {
        switch availability {
        case .available: "active"
        case .notStarted: "scheduled"
        case .expired: "expired"
        case .usedUp: "used_up"
        case .disabled: "disabled"
        }
    }
}

/// `POST /api/admin/promotions`: a new code. `kind` is `percent_off` (give `percent_off`, 1–100) or
/// `amount_off` (give `amount_off` in the shop's currency); the rest is optional.
public struct NewPromotionRequest: Codable, Hashable, Sendable {
    public var code: String
    public var kind: String
    public var percentOff: Int?
    public var amountOff: Money?
    /// Zero when absent.
    public var minimumSubtotal: Money?
    /// ISO 8601 timestamps with a time zone (`2026-12-24T00:00:00Z`); absent for an open end.
    public var startsAt: String?
    public var endsAt: String?
    /// At least 1; absent for no limit.
    public var usageLimit: Int?

    private enum CodingKeys: String, CodingKey {
        case code, kind
        case percentOff = "percent_off"
        case amountOff = "amount_off"
        case minimumSubtotal = "minimum_subtotal"
        case startsAt = "starts_at"
        case endsAt = "ends_at"
        case usageLimit = "usage_limit"
    }

    public init(
        code: String, kind: String, percentOff: Int? = nil, amountOff: Money? = nil, minimumSubtotal: Money? = nil,
        startsAt: String? = nil, endsAt: String? = nil, usageLimit: Int? = nil
    ) {
        self.code = code
        self.kind = kind
        self.percentOff = percentOff
        self.amountOff = amountOff
        self.minimumSubtotal = minimumSubtotal
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.usageLimit = usageLimit
    }

    /// An ISO 8601 timestamp as the API reads one (with or without fractional seconds), or `nil`.
    public static func instant(_ text: String) -> Date? {
        if let date = try? StoreJSON.timestampStyle.parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}

/// A customer as the back office lists them.
public struct AdminCustomerBody: Codable, Hashable, Sendable {
    public var id: Int64
    public var email: String
    /// First and last name.
    public var name: String
    /// `free` or `pro`, decided now from the customer's subscription facts.
    public var tier: Tier
    public var orderCount: Int
    /// What their orders charged, fees included.
    public var totalSpent: Money
    public var joinedAt: String

    private enum CodingKeys: String, CodingKey {
        case id, email, name, tier
        case orderCount = "order_count"
        case totalSpent = "total_spent"
        case joinedAt = "joined_at"
    }

    public init(
        id: Int64, email: String, name: String, tier: Tier, orderCount: Int, totalSpent: Money, joinedAt: String
    ) {
        self.id = id
        self.email = email
        self.name = name
        self.tier = tier
        self.orderCount = orderCount
        self.totalSpent = totalSpent
        self.joinedAt = joinedAt
    }
}

/// One page of `GET /api/admin/customers`: customers by id, and how many match in all.
public struct AdminCustomerList: Codable, Hashable, Sendable {
    public var customers: [AdminCustomerBody]
    public var total: Int
    public var offset: Int
    public var limit: Int

    public init(customers: [AdminCustomerBody], total: Int, offset: Int, limit: Int) {
        self.customers = customers
        self.total = total
        self.offset = offset
        self.limit = limit
    }
}

/// One of a customer's orders.
public struct AdminCustomerOrderBody: Codable, Hashable, Sendable {
    public var id: String
    public var createdAt: String
    /// What was charged, fee included.
    public var total: Money
    /// `paid` or `refunded`.
    public var paymentStatus: String
    /// `unfulfilled`, `packed`, `shipped`, `delivered` or `cancelled`.
    public var fulfilmentStatus: String

    private enum CodingKeys: String, CodingKey {
        case id, total
        case createdAt = "created_at"
        case paymentStatus = "payment_status"
        case fulfilmentStatus = "fulfilment_status"
    }

    public init(id: String, createdAt: String, total: Money, paymentStatus: String, fulfilmentStatus: String) {
        self.id = id
        self.createdAt = createdAt
        self.total = total
        self.paymentStatus = paymentStatus
        self.fulfilmentStatus = fulfilmentStatus
    }
}

/// `GET /api/admin/customers/{id}`: the customer and one page of their orders, newest first
/// (`total` counts them all).
public struct AdminCustomerDetail: Codable, Hashable, Sendable {
    public var customer: AdminCustomerBody
    public var orders: [AdminCustomerOrderBody]
    public var total: Int
    public var offset: Int
    public var limit: Int

    public init(customer: AdminCustomerBody, orders: [AdminCustomerOrderBody], total: Int, offset: Int, limit: Int) {
        self.customer = customer
        self.orders = orders
        self.total = total
        self.offset = offset
        self.limit = limit
    }
}

/// A product whose stock needs looking at.
public struct StockAlertBody: Codable, Hashable, Sendable {
    public var id: Int64
    public var sku: String
    public var title: String
    public var stock: Int

    public init(id: Int64, sku: String, title: String, stock: Int) {
        self.id = id
        self.sku = sku
        self.title = title
        self.stock = stock
    }
}

/// `GET /api/admin/dashboard`: today's figures (the UTC day) and the products to restock.
public struct DashboardBody: Codable, Hashable, Sendable {
    /// The UTC day the figures are for, `2026-12-04`.
    public var day: String
    public var ordersToday: Int
    /// What today's orders charged, fees included.
    public var revenueToday: Money
    /// Orders not yet packed (fulfilment `unfulfilled`).
    public var ordersToPack: Int
    /// At or below this many units (and above zero) a product is low on stock.
    public var lowStockThreshold: Int
    /// Active products low on stock, fewest first (at most 100), and how many in all.
    public var lowStock: [StockAlertBody]
    public var lowStockCount: Int
    /// Active products with no units, by title (at most 100), and how many in all.
    public var soldOut: [StockAlertBody]
    public var soldOutCount: Int

    private enum CodingKeys: String, CodingKey {
        case day
        case ordersToday = "orders_today"
        case revenueToday = "revenue_today"
        case ordersToPack = "orders_to_pack"
        case lowStockThreshold = "low_stock_threshold"
        case lowStock = "low_stock"
        case lowStockCount = "low_stock_count"
        case soldOut = "sold_out"
        case soldOutCount = "sold_out_count"
    }

    public init(
        day: String, ordersToday: Int, revenueToday: Money, ordersToPack: Int, lowStockThreshold: Int,
        lowStock: [StockAlertBody], lowStockCount: Int, soldOut: [StockAlertBody], soldOutCount: Int
    ) {
        self.day = day
        self.ordersToday = ordersToday
        self.revenueToday = revenueToday
        self.ordersToPack = ordersToPack
        self.lowStockThreshold = lowStockThreshold
        self.lowStock = lowStock
        self.lowStockCount = lowStockCount
        self.soldOut = soldOut
        self.soldOutCount = soldOutCount
    }
}

/// One line of the audit log.
public struct AuditEntryBody: Codable, Hashable, Sendable {
    /// Page with `?before=` the last id seen.
    public var id: Int64
    public var at: String
    /// Who: a member of staff's email, `command line`, `demo data`, `unknown account`.
    public var staff: String
    /// A stable code: `promotion.created`, `staff.removed`…
    public var action: String
    /// What it was done to: `promotion:RUN10`, `staff:3`…
    public var subject: String
    /// Short JSON texts (or plain text) of the values before and after, when the action has them.
    public var before: String?
    public var after: String?

    public init(
        id: Int64, at: String, staff: String, action: String, subject: String, before: String?, after: String?
    ) {
        self.id = id
        self.at = at
        self.staff = staff
        self.action = action
        self.subject = subject
        self.before = before
        self.after = after
    }
}

/// A member of staff as the staff list shows them: removed ones are kept (the audit log names
/// them), with `active` false.
public struct StaffMemberBody: Codable, Hashable, Sendable {
    public var id: Int64
    public var email: String
    /// `owner`, `catalog` or `orders`.
    public var role: String
    public var active: Bool
    public var addedAt: String
    public var removedAt: String?

    private enum CodingKeys: String, CodingKey {
        case id, email, role, active
        case addedAt = "added_at"
        case removedAt = "removed_at"
    }

    public init(id: Int64, email: String, role: String, active: Bool, addedAt: String, removedAt: String?) {
        self.id = id
        self.email = email
        self.role = role
        self.active = active
        self.addedAt = addedAt
        self.removedAt = removedAt
    }
}
