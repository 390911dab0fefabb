import CheckoutKit
import Foundation
import HTTPServer
import StoreAPI
import StoreDatabase
import StoreServices

/// The back office's promotions, customers, dashboard, audit log and staff removal as JSON
/// (docs/BEHAVIOUR.md §13.9–§13.13). Reads write nothing; every change writes its audit line in its
/// own transaction.
struct AdminBackOfficeRoutes: Sendable {
    let promotions: PromotionManagement
    let customers: CustomerDirectory
    let dashboard: Dashboard
    let audit: AuditLog
    let staff: StaffService

    /// A page's rows when the query names no `limit`.
    static let defaultPageSize = 50

    func register(on routes: inout RouteTable) {
        registerPromotions(on: &routes)
        registerCustomers(on: &routes)
        routes.staff(AdminEndpoints.dashboard) { _, _ in
            let (day, figures) = try await dashboard.figures()
            return try respond(
                DashboardBody(
                    day: day.start.formatted(Date.ISO8601FormatStyle().year().month().day()),
                    ordersToday: figures.ordersToday, revenueToday: figures.revenueToday,
                    ordersToPack: figures.ordersToPack, lowStockThreshold: StockLevel.lowStockThreshold,
                    lowStock: figures.lowStock.map(StockAlertBody.init), lowStockCount: figures.lowStockCount,
                    soldOut: figures.soldOut.map(StockAlertBody.init), soldOutCount: figures.soldOutCount))
        }
        routes.staff(AdminEndpoints.audit) { request, caller in
            let before = try AdminCatalogRoutes.count(request.query("before"), name: "before").map(Int64.init)
            let limit = try Self.limit(request, maximum: AuditLog.maximumPageSize)
            let page = try await audit.entries(for: caller.staff, before: before, limit: limit)
            return try respond(page.entries.map(AuditEntryBody.init))
        }
        routes.staff(AdminEndpoints.auditCSV) { _, caller in
            var response = Response.bytes(
                try await audit.csv(for: caller.staff), contentType: "text/csv; charset=utf-8")
            response.headers.replaceOrAdd(name: "Content-Disposition", value: #"attachment; filename="audit-log.csv""#)
            return response
        }
        routes.staff(AdminEndpoints.removeStaff) { _, caller in
            try respond(StaffMemberBody(try await staff.remove(try caller.parameter(StaffID.self), by: caller.staff)))
        }
    }

    private func registerPromotions(on routes: inout RouteTable) {
        routes.staff(AdminEndpoints.promotions) { _, _ in
            try respond(try await promotions.promotions().map { AdminPromotionBody($0.promotion, status: $0.status) })
        }
        routes.staff(AdminEndpoints.createPromotion) { request, caller in
            let body = try request.decodeJSON(NewPromotionRequest.self)
            let draft = try Self.draft(body)
            do {
                let created = try await promotions.create(draft, by: caller.staff)
                return try respond(
                    AdminPromotionBody(created, status: promotions.status(of: created)), status: .created)
            } catch let error as PromotionDetailsError {
                throw error.httpError(valueField: body.kind)
            }
        }
        routes.staff(AdminEndpoints.disablePromotion) { _, caller in
            let disabled = try await promotions.disable(try caller.parameter(PromotionCode.self), by: caller.staff)
            return try respond(AdminPromotionBody(disabled, status: promotions.status(of: disabled)))
        }
    }

    private func registerCustomers(on routes: inout RouteTable) {
        routes.staff(AdminEndpoints.customers) { request, _ in
            let offset = try AdminCatalogRoutes.count(request.query("offset"), name: "offset") ?? 0
            let limit = try Self.limit(request, maximum: CustomerDirectory.maximumPageSize)
            let page = try await customers.customers(search: request.query("q"), offset: offset, limit: limit)
            return try respond(
                AdminCustomerList(
                    customers: page.customers.map(AdminCustomerBody.init), total: page.total, offset: offset,
                    limit: limit))
        }
        routes.staff(AdminEndpoints.customer) { request, caller in
            let id = try caller.parameter(CustomerID.self)
            let offset = try AdminCatalogRoutes.count(request.query("offset"), name: "offset") ?? 0
            let limit = try Self.limit(request, maximum: CustomerDirectory.maximumPageSize)
            guard let customer = try await customers.customer(id) else { throw HTTPError.customerNotFound }
            let orders = try await customers.orders(of: id, offset: offset, limit: limit)
            return try respond(
                AdminCustomerDetail(
                    customer: AdminCustomerBody(customer), orders: orders.orders.map(AdminCustomerOrderBody.init),
                    total: orders.total, offset: offset, limit: limit))
        }
    }

    /// The query's `limit`: 1 to `maximum`, ``defaultPageSize`` when absent.
    static func limit(_ request: Request, maximum: Int) throws(HTTPError) -> Int {
        let limit = try AdminCatalogRoutes.count(request.query("limit"), name: "limit") ?? defaultPageSize
        guard (1...maximum).contains(limit) else {
            throw HTTPError.invalidQuery("limit", "A limit is from 1 to \(maximum).")
        }
        return limit
    }

    /// The promotion a request asks for, before the rules check its values: its kind names which
    /// value it gives, and its instants are ISO 8601 timestamps.
    static func draft(_ body: NewPromotionRequest) throws(HTTPError) -> PromotionDraft {
        let offer: PromotionOffer
        switch PromotionBody.Kind(rawValue: body.kind) {
        case .percentOff:
            guard let percent = body.percentOff else {
                throw .invalidPromotion("A percent_off promotion gives percent_off: 1 to 100.", field: "percent_off")
            }
            guard body.amountOff == nil else {
                throw .invalidPromotion("A percent_off promotion gives no amount_off.", field: "amount_off")
            }
            offer = .percent(percent)
        case .amountOff:
            guard let amount = body.amountOff else {
                throw .invalidPromotion("An amount_off promotion gives amount_off: an amount.", field: "amount_off")
            }
            guard body.percentOff == nil else {
                throw .invalidPromotion("An amount_off promotion gives no percent_off.", field: "percent_off")
            }
            offer = .amount(amount)
        case nil:
            throw .invalidPromotion("A kind is percent_off or amount_off.", field: "kind")
        }
        func instant(_ text: String?, field: String) throws(HTTPError) -> Date? {
            guard let text else { return nil }
            guard let date = NewPromotionRequest.instant(text) else {
                throw .invalidPromotion(
                    "An instant is an ISO 8601 timestamp with its time zone, like 2026-12-24T00:00:00Z.", field: field)
            }
            return date
        }
        return PromotionDraft(
            code: body.code, offer: offer, minimumSubtotal: body.minimumSubtotal,
            startsAt: try instant(body.startsAt, field: "starts_at"),
            endsAt: try instant(body.endsAt, field: "ends_at"),
            usageLimit: body.usageLimit)
    }
}

extension PromotionCode: PathParameter {
    init?(pathSegment: String) { self.init(pathSegment) }
    static var notFound: HTTPError { .promotionNotFound }
}

extension StaffID: PathParameter {
    init?(pathSegment: String) {
        guard let id = Int64(positiveDecimal: pathSegment) else { return nil }
        self.init(rawValue: id)
    }
    static var notFound: HTTPError { .staffNotFound }
}

extension AdminCustomerBody {
    init(_ overview: CustomerOverview) {
        let customer = overview.customer
        self.init(
            id: customer.id.rawValue, email: customer.email, name: customer.name, tier: overview.tier,
            orderCount: customer.orderCount, totalSpent: customer.totalSpent,
            joinedAt: StoreJSON.timestamp(customer.createdAt))
    }
}

extension AdminCustomerOrderBody {
    init(_ order: CustomerOrderSummary) {
        self.init(
            id: order.id.rawValue, createdAt: StoreJSON.timestamp(order.placedAt), total: order.total,
            paymentStatus: order.paymentStatus.rawValue, fulfilmentStatus: order.fulfilment.rawValue)
    }
}

extension StockAlertBody {
    init(_ product: ManagedProduct) {
        self.init(id: product.id.rawValue, sku: product.details.sku, title: product.details.title, stock: product.stock)
    }
}

extension AuditEntryBody {
    init(_ entry: AuditEntry) {
        self.init(
            id: entry.id, at: StoreJSON.timestamp(entry.at), staff: entry.actor, action: entry.action,
            subject: entry.subject, before: entry.before, after: entry.after)
    }
}

extension StaffMemberBody {
    init(_ staff: StaffRecord) {
        self.init(
            id: staff.id.rawValue, email: staff.email, role: staff.role.rawValue, active: staff.isActive,
            addedAt: StoreJSON.timestamp(staff.createdAt), removedAt: staff.removedAt.map(StoreJSON.timestamp))
    }
}
