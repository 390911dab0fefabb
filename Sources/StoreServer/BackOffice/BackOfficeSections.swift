import AdminViews
import CheckoutKit
import Foundation
import HTTPServer
import StoreDatabase
import StoreServices

/// The dashboard (docs/BEHAVIOUR.md §13.11), open to every member of staff.
struct BackOfficeDashboard: Sendable {
    let dashboard: Dashboard

    func register(on routes: inout RouteTable) {
        routes.staffPage(.get, AdminPaths.dashboard, nil) { page in
            let (day, figures) = try await dashboard.figures()
            func alert(_ product: ManagedProduct) -> AdminDashboardPage.StockAlert {
                AdminDashboardPage.StockAlert(
                    id: product.id, title: product.details.title, sku: product.details.sku, stock: product.stock)
            }
            return page.respond(
                AdminPages.dashboard(
                    AdminDashboardPage(
                        day: day.start, ordersToday: figures.ordersToday, revenueToday: figures.revenueToday,
                        ordersToPack: figures.ordersToPack, lowStock: figures.lowStock.map(alert),
                        soldOut: figures.soldOut.map(alert)),
                    context: page.context))
        }
    }
}

/// Promotions (docs/BEHAVIOUR.md §13.9): every code with its use count, **New promotion**, and
/// **Disable**, which a basket holding the code feels at once.
struct BackOfficePromotions: Sendable {
    let promotions: PromotionManagement

    func register(on routes: inout RouteTable) {
        routes.staffPage(.get, AdminPaths.promotions, .managePromotions) { page in
            let rows = try await promotions.promotions().map { promotion, status in
                AdminPromotionsPage.Row(promotion: promotion, status: AdminPromotionStatus(status))
            }
            return page.respond(AdminPages.promotions(AdminPromotionsPage(promotions: rows), context: page.context))
        }
        routes.staffPage(.get, AdminPaths.newPromotion, .managePromotions) { page in
            page.respond(
                AdminPages.newPromotion(AdminNewPromotionPage(currency: promotions.currency), context: page.context))
        }
        routes.staffPage(.post, AdminPaths.newPromotion, .managePromotions) { page in try await create(page) }
        routes.staffPage(.post, AdminPaths.disablePromotionPattern, .managePromotions) { page in
            guard let code = PromotionCode(page.route.parameters.values.first ?? "") else {
                return page.error(.notFound)
            }
            do {
                _ = try await promotions.disable(code, by: page.staff)
            } catch PromotionChangeError.notFound {
                return page.error(.notFound)
            }
            return page.redirect(AdminPaths.promotions, .promotionDisabled)
        }
    }

    /// **Save** on the new-promotion form: the list, or the form again with its problems.
    private func create(_ page: StaffPage) async throws -> Response {
        var form = AdminPromotionForm(
            code: page.text(AdminFormFields.code),
            kind: AdminPromotionForm.Kind(rawValue: page.text(AdminFormFields.kind)) ?? .percent,
            value: page.text(AdminFormFields.value), minimumSubtotal: page.text(AdminFormFields.minimumSubtotal),
            starts: page.text(AdminFormFields.starts), ends: page.text(AdminFormFields.ends),
            usageLimit: page.text(AdminFormFields.usageLimit))
        let currency = promotions.currency
        let offer =
            form.kind == .percent
            ? PromotionRules.percent(form.value) : PromotionRules.amount(form.value, currency: currency)
        let minimum = PromotionRules.minimumSubtotal(form.minimumSubtotal, currency: currency)
        let limit = PromotionRules.usageLimit(form.usageLimit)
        let starts = Self.moment(form.starts, timeZone: page.context.timeZone)
        let ends = Self.moment(form.ends, timeZone: page.context.timeZone)
        if case .failure(let problem) = offer { form.errors[.value] = problem.message }
        if case .failure(let problem) = minimum { form.errors[.minimumSubtotal] = problem.message }
        if case .failure(let problem) = limit { form.errors[.usageLimit] = problem.message }
        if starts == nil { form.errors[.starts] = "A start is a date and time, or empty for now." }
        if ends == nil { form.errors[.ends] = "An end is a date and time, or empty for never." }
        if case .success(let offer) = offer, case .success(let minimum) = minimum, case .success(let limit) = limit,
            let starts, let ends
        {
            let draft = PromotionDraft(
                code: form.code, offer: offer, minimumSubtotal: minimum, startsAt: starts, endsAt: ends,
                usageLimit: limit)
            do {
                _ = try await promotions.create(draft, by: page.staff)
                return page.redirect(AdminPaths.promotions, .promotionCreated)
            } catch let error as PromotionDetailsError {
                for problem in error.problems {
                    let field = Self.field(problem.field)
                    if form.errors[field] == nil { form.errors[field] = problem.message }
                }
            } catch PromotionChangeError.exists {
                form.errors[.code] = "A promotion with this code exists already (disabled ones keep their code)."
            }
        }
        return page.respond(
            AdminPages.newPromotion(AdminNewPromotionPage(form: form, currency: currency), context: page.context),
            status: .unprocessableContent)
    }

    /// A `datetime-local` value (`2026-12-24T09:00`) read in `timeZone`: `.some(nil)` when empty,
    /// `nil` when it is not one.
    static func moment(_ text: String, timeZone: TimeZone) -> Date?? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return .some(nil) }
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_US_POSIX")
        parser.timeZone = timeZone
        for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"] {
            parser.dateFormat = format
            if let date = parser.date(from: text) { return .some(date) }
        }
        return nil
    }

    static func field(_ field: PromotionField) -> AdminPromotionForm.Field {
        switch field {
        case .code: .code
        case .kind: .kind
        case .value: .value
        case .minimumSubtotal: .minimumSubtotal
        case .startsAt: .starts
        case .endsAt: .ends
        case .usageLimit: .usageLimit
        }
    }
}

extension AdminPromotionStatus {
    init(_ availability: Promotion.Availability) {
        switch availability {
        case .available: self = .active
        case .notStarted: self = .scheduled
        case .expired: self = .expired
        case .usedUp: self = .usedUp
        case .disabled: self = .disabled
        }
    }
}

/// Customers (docs/BEHAVIOUR.md §13.10): read only.
struct BackOfficeCustomers: Sendable {
    let customers: CustomerDirectory
    static let pageSize = 50

    func register(on routes: inout RouteTable) {
        routes.staffPage(.get, AdminPaths.customers, .readCustomers) { page in
            let search = page.query(AdminFormFields.search) ?? ""
            let number = BackOfficeProducts.pageNumber(page.query(AdminFormFields.page))
            let (found, total) = try await customers.customers(
                search: search, offset: (number - 1) * Self.pageSize, limit: Self.pageSize)
            let rows = found.map { overview in
                AdminCustomerListPage.Row(
                    id: overview.customer.id.rawValue, email: overview.customer.email,
                    name: Self.name(overview.customer), tier: overview.tier,
                    orderCount: overview.customer.orderCount, joinedAt: overview.customer.createdAt)
            }
            return page.respond(
                AdminPages.customers(
                    AdminCustomerListPage(
                        search: search, customers: rows,
                        paging: AdminPaging(page: number, pageSize: Self.pageSize, totalCount: total)),
                    context: page.context))
        }
        routes.staffPage(.get, AdminPaths.customerPattern, .readCustomers) { page in
            let id = try page.parameter(CustomerID.self)
            guard let overview = try await customers.customer(id) else { return page.error(.notFound) }
            let number = BackOfficeProducts.pageNumber(page.query(AdminFormFields.page))
            let orders = try await customers.orders(
                of: id, offset: (number - 1) * Self.pageSize, limit: Self.pageSize)
            let rows = orders.orders.map { order in
                AdminOrderRow(
                    id: order.id.rawValue, placedAt: order.placedAt, customerEmail: overview.customer.email,
                    total: order.total, payment: order.paymentStatus, fulfilment: order.fulfilment)
            }
            return page.respond(
                AdminPages.customer(
                    AdminCustomerPage(
                        id: id.rawValue, email: overview.customer.email, name: Self.name(overview.customer),
                        tier: overview.tier, joinedAt: overview.customer.createdAt, orders: rows,
                        paging: AdminPaging(page: number, pageSize: Self.pageSize, totalCount: orders.total)),
                    context: page.context))
        }
    }

    static func name(_ customer: CustomerSummary) -> String {
        [customer.firstName, customer.lastName].filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// Staff (docs/BEHAVIOUR.md §13.13, owner): **Add staff** and **Remove**.
struct BackOfficeStaff: Sendable {
    let staff: StaffService

    func register(on routes: inout RouteTable) {
        routes.staffPage(.get, AdminPaths.staff, .manageStaff) { page in
            page.respond(AdminPages.staff(try await staffPage(), context: page.context))
        }
        routes.staffPage(.post, AdminPaths.staff, .manageStaff) { page in
            var form = AdminStaffPage.NewMemberForm(
                email: page.text(AdminFormFields.email), role: StaffRole(rawValue: page.text(AdminFormFields.role)))
            guard let role = form.role else {
                form.errors[.role] = "Choose a role."
                return page.respond(
                    AdminPages.staff(try await staffPage(form: form), context: page.context),
                    status: .unprocessableContent)
            }
            do {
                _ = try await staff.add(
                    email: form.email, role: role, password: page.text(AdminFormFields.password), by: page.staff.actor)
                return page.redirect(AdminPaths.staff, .staffAdded)
            } catch StaffInputError.invalidEmail {
                form.errors[.email] = "An email address has one @ and no spaces, like packer@myshop.example."
            } catch StaffInputError.passwordTooShort {
                form.errors[.password] =
                    "A first password has at least \(AdminStaffPage.minimumPasswordLength) characters."
            } catch StaffChangeError.emailTaken {
                form.errors[.email] = "A member of staff has this email already."
            }
            return page.respond(
                AdminPages.staff(try await staffPage(form: form), context: page.context), status: .unprocessableContent)
        }
        routes.staffPage(.post, AdminPaths.removeStaffPattern, .manageStaff) { page in
            guard let text = page.route.parameters.values.first, let id = Int64(positiveDecimal: text) else {
                return page.error(.notFound)
            }
            do {
                _ = try await staff.remove(StaffID(rawValue: id), by: page.staff)
            } catch StaffRemovalError.notFound {
                return page.error(.notFound)
            } catch StaffChangeError.lastOwner {
                return page.error(.unprocessable(message: "The shop's last owner cannot be removed."))
            }
            return page.redirect(AdminPaths.staff, .staffRemoved)
        }
    }

    private func staffPage(form: AdminStaffPage.NewMemberForm = .init()) async throws -> AdminStaffPage {
        let members = try await staff.members().filter(\.isActive).map { member in
            AdminStaffPage.Member(
                id: member.id.rawValue, email: member.email, role: member.role, addedAt: member.createdAt)
        }
        return AdminStaffPage(members: members, form: form)
    }
}

/// The audit log (docs/BEHAVIOUR.md §13.12): an owner reads everyone's lines, anyone else their
/// own; **Export** writes the same lines as CSV.
struct BackOfficeAudit: Sendable {
    let audit: AuditLog
    static let pageSize = 50

    func register(on routes: inout RouteTable) {
        routes.staffPage(.get, AdminPaths.audit, nil) { page in
            let before = page.query(AdminFormFields.before).flatMap { Int64(positiveDecimal: $0) }
            let (entries, hasOlder) = try await audit.entries(for: page.staff, before: before, limit: Self.pageSize)
            let rows = entries.map { entry in
                AdminAuditPage.Entry(
                    id: entry.id, at: entry.at, actor: entry.actor, action: entry.action, subject: entry.subject,
                    before: entry.before, after: entry.after)
            }
            return page.respond(
                AdminPages.audit(
                    AdminAuditPage(
                        entries: rows, scope: AuditLog.scope(for: page.staff) == nil ? .everyone : .own,
                        isOlderPage: before != nil, hasOlder: hasOlder),
                    context: page.context))
        }
        routes.staffPage(.get, AdminPaths.exportAudit, nil) { page in
            var response = Response.bytes(try await audit.csv(for: page.staff), contentType: "text/csv; charset=utf-8")
            response.headers["Content-Disposition"] = #"attachment; filename="audit-log.csv""#
            return response
        }
    }
}
