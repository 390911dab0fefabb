import CheckoutKit
import Foundation
import HTTPServer
import StoreAPI
import StoreDatabase
import StoreServices

/// The back office's orders as JSON (docs/BEHAVIOUR.md §13.8): the list, one order, and its
/// fulfilment steps.
struct AdminOrderRoutes: Sendable {
    let orders: OrderManagement

    func register(on routes: inout RouteTable) {
        routes.staff(AdminEndpoints.orders) { request, _ in
            let offset = try AdminCatalogRoutes.count(request.query("offset"), name: "offset") ?? 0
            let limit =
                try AdminCatalogRoutes.count(request.query("limit"), name: "limit") ?? OrderManagement.defaultPageSize
            guard (1...OrderManagement.maximumPageSize).contains(limit) else {
                throw HTTPError.invalidQuery("limit", "A limit is from 1 to \(OrderManagement.maximumPageSize).")
            }
            let page = try await orders.orders(try Self.filter(request), offset: offset, limit: limit)
            return try respond(
                AdminOrderList(
                    orders: page.orders.map(AdminOrderSummary.init), total: page.total, offset: offset, limit: limit))
        }
        routes.staff(AdminEndpoints.order) { _, caller in
            guard let order = try await orders.order(try caller.parameter(OrderID.self)) else {
                throw HTTPError.orderNotFound
            }
            return try respond(AdminOrderBody(order))
        }
        routes.staff(AdminEndpoints.moveOrder) { request, caller in
            let id = try caller.parameter(OrderID.self)
            let body = try request.decodeJSON(FulfilmentRequest.self)
            guard let target = FulfilmentStatus(rawValue: body.status) else {
                throw HTTPError.invalidFulfilmentStatus(
                    "A fulfilment step is packed, shipped or delivered.", field: "status")
            }
            var expected: FulfilmentStatus?
            if let text = body.expectedStatus {
                guard let status = FulfilmentStatus(rawValue: text) else {
                    throw HTTPError.invalidFulfilmentStatus(
                        "expected_status is one of unfulfilled, packed, shipped, delivered and cancelled.",
                        field: "expected_status")
                }
                expected = status
            }
            do {
                let moved = try await orders.move(
                    id, to: target, trackingNumber: body.trackingNumber, expected: expected, by: caller.staff)
                return try respond(AdminOrderBody(moved))
            } catch let refusal as FulfilmentChangeError {
                guard let current = refusal.current else { throw refusal }
                let error = refusal.httpError
                return try respond(
                    InvalidTransitionBody(
                        error: ErrorBody.Detail(type: error.type, message: error.message),
                        fulfilmentStatus: current.rawValue),
                    status: error.status)
            }
        }
    }

    /// The filter parameter `name`, `nil` when absent or empty (a form's "any").
    static func query(_ request: Request, _ name: String) -> String? {
        guard let value = request.query(name), !value.isEmpty else { return nil }
        return value
    }

    /// The list's filter from the query: each value one the store knows, else 400 naming it.
    static func filter(_ request: Request) throws(HTTPError) -> OrderListFilter {
        var filter = OrderListFilter()
        if let text = query(request, "payment_status") {
            guard let status = PaymentStatus(rawValue: text) else {
                throw HTTPError.invalidQuery(
                    "payment_status", "payment_status is one of paid, partially_refunded and refunded.")
            }
            filter.payment = status
        }
        if let text = query(request, "fulfilment_status") {
            guard let status = FulfilmentStatus(rawValue: text) else {
                throw HTTPError.invalidQuery(
                    "fulfilment_status",
                    "fulfilment_status is one of unfulfilled, packed, shipped, delivered and cancelled.")
            }
            filter.fulfilment = status
        }
        if let text = query(request, "from") {
            guard let start = OrderManagement.startOfDay(text) else {
                throw HTTPError.invalidQuery("from", "from is a day written as 2025-03-12.")
            }
            filter.placedFrom = start
        }
        if let text = query(request, "to") {
            guard let start = OrderManagement.startOfDay(text) else {
                throw HTTPError.invalidQuery("to", "to is a day written as 2025-03-12.")
            }
            filter.placedBefore = start.addingTimeInterval(OrderManagement.day)
        }
        if let text = query(request, "q") {
            guard text.unicodeScalars.count <= OrderManagement.maximumSearchLength,
                !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw HTTPError.invalidQuery(
                    "q", "q is at most \(OrderManagement.maximumSearchLength) characters, none of them a control.")
            }
            filter.search = text
        }
        return filter
    }
}

extension HTTPError {
    /// A fulfilment step or state the request names that is not one.
    static func invalidFulfilmentStatus(_ message: String, field: String) -> HTTPError {
        HTTPError(.unprocessableContent, type: "invalid_fulfilment_status", message: message, field: field)
    }
}

extension AdminOrderSummary {
    init(_ order: OrderSummary) {
        self.init(
            id: order.id.rawValue, createdAt: StoreJSON.timestamp(order.createdAt), customerEmail: order.customerEmail,
            total: order.total, paymentStatus: order.paymentStatus.rawValue,
            fulfilmentStatus: order.fulfilment.rawValue, itemCount: order.itemCount)
    }
}

extension AdminOrderBody {
    init(_ managed: ManagedOrder) {
        let order = managed.order
        self.init(
            id: order.id.rawValue, createdAt: StoreJSON.timestamp(order.createdAt),
            lines: order.lines.map(OrderLineBody.init), subtotal: order.subtotal, discount: order.discount,
            promotion: order.promotionCode?.rawValue, shipping: order.shipping, fee: order.fee, total: order.total,
            paymentMethod: PaymentMethodBody(type: order.paymentMethod.rawValue, brand: order.cardBrand),
            paymentStatus: managed.paymentStatus.rawValue, fulfilmentStatus: managed.fulfilment.rawValue,
            trackingNumber: managed.trackingNumber,
            customer: managed.customer.map {
                AdminOrderCustomerBody(id: $0.id.rawValue, email: $0.email, name: $0.name)
            },
            refunds: managed.refunds.map { RefundBody($0, forShopper: false) },
            timeline: managed.timeline.map {
                OrderTimelineEntryBody(
                    at: StoreJSON.timestamp($0.at), kind: $0.kind, actor: $0.actor, detail: $0.detail)
            })
    }
}
