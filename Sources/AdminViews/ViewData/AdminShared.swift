import CheckoutKit
import Foundation

/// Where a list is: which page of how many rows. Pages count from 1.
public struct AdminPaging: Hashable, Sendable {
    /// The page shown, from 1.
    public var page: Int
    /// Rows on a full page.
    public var pageSize: Int
    /// Rows in the whole list, across every page.
    public var totalCount: Int

    public init(page: Int, pageSize: Int, totalCount: Int) {
        self.page = max(1, page)
        self.pageSize = max(1, pageSize)
        self.totalCount = max(0, totalCount)
    }

    /// How many pages the list has; at least 1, an empty list being one empty page.
    public var pageCount: Int { max(1, (totalCount + pageSize - 1) / pageSize) }
    public var hasPrevious: Bool { page > 1 }
    public var hasNext: Bool { page < pageCount }
    /// How many rows come before this page: what to skip in a query.
    public var offset: Int { (page - 1) * pageSize }
}

/// Who did something, as an order's timeline and a product's stock ledger name them.
public enum AdminActor: Hashable, Sendable {
    /// A member of staff, by their email.
    case staff(email: String)
    /// The customer (or guest shopper) who placed the order.
    case customer
    /// The shop itself: a sale, a released payment, a reconciliation.
    case store

    /// `owner@onlinestore.test`, `Customer`, `Store`.
    public var name: String {
        switch self {
        case .staff(let email): email
        case .customer: "Customer"
        case .store: "Store"
        }
    }
}

/// Where a refund stands with the payment provider.
public enum AdminRefundStatus: String, CaseIterable, Hashable, Sendable {
    case succeeded
    /// The provider's answer was lost; it is settled by asking the provider, never by refunding again.
    case pending
    /// The provider refused it; the amount is refundable again.
    case failed

    /// `Succeeded`, `Pending`, `Failed`.
    public var label: String {
        switch self {
        case .succeeded: "Succeeded"
        case .pending: "Pending"
        case .failed: "Failed"
        }
    }
}

/// One order in a list (the order list, a customer's page).
public struct AdminOrderRow: Hashable, Sendable, Identifiable {
    /// The order's id, `ord_…`.
    public var id: String
    public var placedAt: Date
    /// The customer's email, or `nil` for a guest's order.
    public var customerEmail: String?
    /// What was charged, fee included.
    public var total: Money
    public var payment: PaymentStatus
    public var fulfilment: FulfilmentStatus

    public init(
        id: String, placedAt: Date, customerEmail: String?, total: Money, payment: PaymentStatus,
        fulfilment: FulfilmentStatus
    ) {
        self.id = id
        self.placedAt = placedAt
        self.customerEmail = customerEmail
        self.total = total
        self.payment = payment
        self.fulfilment = fulfilment
    }
}
