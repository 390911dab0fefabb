import AdminViews
import CheckoutKit
import Foundation
import HTTPServer
import StoreDatabase
import StoreServices

/// Orders (docs/BEHAVIOUR.md §13.8): the list with its filters and search, an order's page with
/// its payment, refunds and timeline, and **Mark packed**, **Mark shipped** (with **Tracking
/// number**), **Mark delivered** — each naming the state the page showed, so a step on an order
/// that moved meanwhile is refused with its new state, never applied twice. **Cancel order** and
/// **Refund** are ``BackOfficeRefunds``'.
struct BackOfficeOrders: Sendable {
    let orders: OrderManagement
    static let pageSize = 50

    func register(on routes: inout RouteTable) {
        routes.staffPage(.get, AdminPaths.orders, .manageOrders) { page in try await list(page) }
        routes.staffPage(.get, AdminPaths.orderPattern, .manageOrders) { page in
            let id = try page.parameter(OrderID.self)
            guard let order = try await orders.order(id) else { return page.error(.notFound) }
            return page.respond(AdminPages.order(Self.orderPage(order, for: page.staff), context: page.context))
        }
        routes.staffPage(.post, AdminPaths.orderFulfilmentPattern, .manageOrders) { page in try await move(page) }
    }

    private func list(_ page: StaffPage) async throws -> Response {
        let filter = AdminOrderFilter(parameters: Storefront.parameters(page.request.queryItems))
        let (start, end) = filter.interval(in: page.context)
        let number = BackOfficeProducts.pageNumber(page.query(AdminFormFields.page))
        let found = try await orders.orders(
            OrderListFilter(
                payment: filter.payment.flatMap { PaymentStatus(rawValue: $0.rawValue) }, fulfilment: filter.fulfilment,
                placedFrom: start, placedBefore: end, search: filter.search.isEmpty ? nil : filter.search),
            offset: (number - 1) * Self.pageSize, limit: Self.pageSize)
        let rows = found.orders.map { order in
            AdminOrderRow(
                id: order.id.rawValue, placedAt: order.createdAt, customerEmail: order.customerEmail,
                total: order.total, payment: order.paymentStatus, fulfilment: order.fulfilment)
        }
        return page.respond(
            AdminPages.orders(
                AdminOrderListPage(
                    filter: filter, orders: rows,
                    paging: AdminPaging(page: number, pageSize: Self.pageSize, totalCount: found.total)),
                context: page.context))
    }

    /// A fulfilment step from the order's page.
    private func move(_ page: StaffPage) async throws -> Response {
        let id = try page.parameter(OrderID.self)
        guard let target = FulfilmentStatus(rawValue: page.text(AdminFormFields.status)),
            let expected = FulfilmentStatus(rawValue: page.text(AdminFormFields.currentStatus))
        else { return page.error(.unprocessable(message: "The form was incomplete. Open the order again.")) }
        let tracking = page.value(AdminFormFields.trackingNumber)
        do {
            _ = try await orders.move(id, to: target, trackingNumber: tracking, expected: expected, by: page.staff)
            return page.redirect(AdminPaths.order(id.rawValue), .orderMoved(target))
        } catch FulfilmentChangeError.notFound {
            return page.error(.notFound)
        } catch FulfilmentChangeError.invalidTransition(let current), FulfilmentChangeError.movedMeanwhile(let current)
        {
            return page.error(.conflict(.order(id: id.rawValue, now: current)))
        } catch let error as FulfilmentInputError {
            guard let order = try await orders.order(id) else { return page.error(.notFound) }
            var view = Self.orderPage(order, for: page.staff)
            view.trackingNumberInput = tracking ?? ""
            view.trackingNumberError =
                switch error {
                case .trackingNumberRequired: "Shipping needs the parcel's tracking number."
                case .invalidTrackingNumber: "A tracking number is 1 to 64 letters, digits, spaces and hyphens."
                case .cancelIsNotAStep: "Cancelling is not a fulfilment step."
                }
            return page.respond(AdminPages.order(view, context: page.context), status: .unprocessableContent)
        }
    }

    /// An order's page: its lines, amounts, payment and refunds, customer, timeline, and the
    /// actions its state allows `staff` — **Cancel order** with a key minted for this page, so the
    /// same form sent twice cancels once; the **Refund** link with the `refund` permission.
    static func orderPage(_ managed: ManagedOrder, for staff: StaffRecord) -> AdminOrderPage {
        let order = managed.order
        let currency = order.total.currency
        func sum(_ state: RefundState) -> Money {
            Money(
                minorUnits: managed.refunds.filter { $0.state == state }.reduce(0) { $0 + $1.amount.minorUnits },
                currency: currency)
        }
        let (refunded, pending) = (sum(.succeeded), sum(.pending))
        let remaining = Money(
            minorUnits: max(0, order.total.minorUnits - refunded.minorUnits - pending.minorUnits), currency: currency)
        return AdminOrderPage(
            id: order.id.rawValue, placedAt: order.createdAt,
            lines: order.lines.map { line in
                AdminOrderPage.Line(
                    productID: line.productID, title: line.title, unitPrice: line.unitPrice, quantity: line.quantity,
                    lineTotal: line.lineTotal)
            },
            amounts: AdminOrderPage.Amounts(
                subtotal: order.subtotal, discount: order.discount, promotionCode: order.promotionCode?.rawValue,
                shipping: order.shipping, fee: order.fee, total: order.total),
            payment: AdminOrderPage.Payment(
                method: order.paymentMethod, cardBrand: order.cardBrand,
                status: managed.paymentStatus, paid: order.total, refunded: refunded,
                pending: pending, remaining: remaining),
            customer: managed.customer.map { AdminOrderPage.Customer(id: $0.id.rawValue, email: $0.email) },
            fulfilment: managed.fulfilment, trackingNumber: managed.trackingNumber,
            timeline: managed.timeline.compactMap { event in timelineEntry(event, total: order.total) },
            refunds: managed.refunds.map(Self.refundRow),
            actions: AdminOrderPage.Actions.allowed(
                fulfilment: managed.fulfilment, remaining: remaining,
                cancelIdempotencyKey: IdempotencyKey.random().rawValue, mayRefund: staff.role.may(.refund)))
    }

    static func refundRow(_ refund: Refund) -> AdminOrderPage.Refund {
        AdminOrderPage.Refund(
            amount: refund.amount, status: AdminRefundStatus(refund.state), kind: refund.kind,
            lines: refund.lines.map {
                AdminOrderPage.Refund.Line(title: $0.title, quantity: $0.quantity, restock: $0.restock)
            },
            shipping: refund.shipping.isPositive, fee: refund.fee.isPositive, reason: refund.reason.kind.label,
            note: refund.reason.note, failure: refund.failureReason, by: refund.requestedBy, at: refund.createdAt)
    }

    static func timelineEntry(_ event: OrderEvent, total: Money) -> AdminOrderPage.TimelineEntry? {
        let happened: AdminOrderPage.Event
        switch event.kind {
        case "paid": happened = .paid(total)
        case "packed": happened = .packed
        case "shipped": happened = .shipped(trackingNumber: event.detail)
        case "delivered": happened = .delivered
        case "refund_requested": happened = .refundRequested(event.detail.flatMap(Self.amount))
        case "refunded": happened = .refunded(event.detail.flatMap(Self.amount))
        case "refund_failed": happened = .refundFailed(reason: event.detail)
        case "refund_withdrawn": happened = .refundWithdrawn
        case "cancelled": happened = .cancelled
        default: return nil
        }
        let actor: AdminActor =
            switch event.actor {
            case "customer": .customer
            case "shop", "store": .store
            default: .staff(email: event.actor)
            }
        return AdminOrderPage.TimelineEntry(event: happened, actor: actor, at: event.at)
    }

    /// The amount a refund's timeline line names: `12.50 EUR`; `nil` for anything else.
    static func amount(_ text: String) -> Money? {
        let parts = text.split(separator: " ")
        guard parts.count == 2 else { return nil }
        return try? Money(amount: String(parts[0]), currencyCode: String(parts[1]))
    }
}

extension AdminRefundStatus {
    init(_ state: RefundState) {
        switch state {
        case .pending: self = .pending
        case .succeeded: self = .succeeded
        case .failed: self = .failed
        }
    }
}
