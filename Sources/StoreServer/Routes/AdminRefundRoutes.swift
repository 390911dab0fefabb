import CheckoutKit
import HTTPServer
import StoreAPI
import StoreDatabase
import StoreServices

/// Refunds and cancellations as JSON (docs/BEHAVIOUR.md §14): a refund once per
/// `Idempotency-Key`, its quote, and **Cancel order**.
struct AdminRefundRoutes: Sendable {
    let refunds: RefundService

    func register(on routes: inout RouteTable) {
        routes.staff(AdminEndpoints.quoteRefund) { request, caller in
            let id = try caller.parameter(OrderID.self)
            let body = try request.decodeJSON(RefundRequestBody.self)
            let selection = try Self.selection(body)
            _ = try Self.reason(body.reason, note: body.note)
            do {
                let plan = try await refunds.quote(id, selection)
                guard let order = try await refunds.refundable(id) else { throw HTTPError.orderNotFound }
                return try respond(
                    RefundQuoteBody(
                        amount: plan.amount, lines: plan.lines.map(RefundLineBody.init), shipping: plan.shipping,
                        fee: plan.fee, remaining: order.remaining))
            } catch let error as RefundRecordError {
                return try Self.refusal(error)
            }
        }
        routes.staff(AdminEndpoints.refundOrder) { request, caller in
            let id = try caller.parameter(OrderID.self)
            let key = try Self.key(request)
            let body = try request.decodeJSON(RefundRequestBody.self)
            let selection = try Self.selection(body)
            let reason = try Self.reason(body.reason, note: body.note)
            return try await Self.answer {
                try await refunds.refund(id, selection, reason: reason, key: key, by: caller.staff.actor)
            }
        }
        routes.staff(AdminEndpoints.cancelOrder) { request, caller in
            let id = try caller.parameter(OrderID.self)
            let key = try Self.key(request)
            let body = try request.decodeJSON(CancelOrderRequest.self)
            guard let reason = RefundReason(kind: .cancelled, note: body.note) else {
                throw HTTPError.invalidRefund(RefundWording.noteTooLong, field: "note")
            }
            return try await Self.answer {
                try await refunds.refund(id, .cancellation, reason: reason, key: key, by: caller.staff.actor)
            }
        }
    }

    /// The request's idempotency key: required, as for a checkout.
    static func key(_ request: Request) throws(HTTPError) -> IdempotencyKey {
        guard let header = request.headers[Endpoints.idempotencyKeyHeader] else {
            throw HTTPError.idempotencyKeyRequired
        }
        guard let key = IdempotencyKey(rawValue: header) else { throw HTTPError.invalidIdempotencyKey }
        return key
    }

    /// The refund the body asks for: lines (and maybe the shipping), or an amount — not both.
    static func selection(_ body: RefundRequestBody) throws(HTTPError) -> RefundSelection {
        if let amount = body.amount {
            guard body.lines?.isEmpty ?? true, body.shipping != true else {
                throw HTTPError.invalidRefund(RefundWording.linesOrAmount, field: "amount")
            }
            return .goodwill(amount)
        }
        let lines = body.lines ?? []
        guard lines.count <= 100 else { throw HTTPError.invalidRefund("At most 100 lines.", field: "lines") }
        return .lines(
            lines.map { .init(position: $0.position, quantity: $0.quantity, restock: $0.restock ?? true) },
            shipping: body.shipping ?? false)
    }

    static func reason(_ text: String, note: String?) throws(HTTPError) -> RefundReason {
        guard let kind = RefundReasonKind(rawValue: text), kind != .cancelled else {
            throw HTTPError.invalidRefund(
                "A reason is one of returned, damaged, wrong_item, not_delivered, goodwill and other.",
                field: "reason")
        }
        guard let reason = RefundReason(kind: kind, note: note) else {
            throw HTTPError.invalidRefund(RefundWording.noteTooLong, field: "note")
        }
        return reason
    }

    /// The answer to a refund request: 201 with the refund, 402 when the provider refused it
    /// (both replayed as they were for the same key), or the refusal.
    static func answer(_ refund: () async throws -> RefundResult) async throws -> Response {
        let result: RefundResult
        do {
            result = try await refund()
        } catch let error as RefundRecordError {
            return try refusal(error)
        } catch let error as IdempotencyError {
            throw error.refundHTTPError
        } catch RefundServiceError.unavailable {
            throw HTTPError.refundUnavailable
        }
        var response: Response
        if result.refund.state == .failed {
            response = try respond(
                RefundFailedBody(
                    error: ErrorBody.Detail(
                        type: "refund_failed",
                        message: RefundWording.refused,
                        reason: result.refund.failureReason),
                    refund: RefundBody(result.refund, forShopper: false)),
                status: HTTPStatus(code: 402))
        } else {
            response = try respond(RefundBody(result.refund, forShopper: false), status: .created)
        }
        if result.replayed { response.headers.replaceOrAdd(name: "Idempotent-Replayed", value: "true") }
        return response
    }

    /// 404, 409 `refund_exceeds_remaining` with the remaining amount, 409 `not_cancellable`, or 422
    /// `invalid_refund`.
    static func refusal(_ error: RefundRecordError) throws -> Response {
        switch error {
        case .orderNotFound:
            throw HTTPError.orderNotFound
        case .plan(.exceedsRemaining(let remaining)):
            return try respond(
                RefundExceedsRemainingBody(
                    error: ErrorBody.Detail(
                        type: "refund_exceeds_remaining",
                        message: RefundWording.exceedsRemaining(remaining.description) + " Nothing was refunded."),
                    remaining: remaining),
                status: .conflict)
        case .plan(let plan):
            throw plan.httpError
        case .refundPending:
            throw HTTPError(
                .conflict, type: "refund_pending",
                message: RefundWording.refundBeforeCancel, headers: ["Retry-After": "1"])
        }
    }
}

extension RefundLineBody {
    init(_ line: RefundLine) {
        self.init(
            position: line.position, productId: line.productID.rawValue, title: line.title, quantity: line.quantity,
            amount: line.amount, restock: line.restock)
    }
}

extension HTTPError {
    /// 422 `invalid_refund`, naming the request's field.
    static func invalidRefund(_ message: String, field: String) -> HTTPError {
        HTTPError(.unprocessableContent, type: "invalid_refund", message: message, field: field)
    }

    /// The provider's answer is not known: the refund is pending (or was never sent).
    static let refundUnavailable = HTTPError(
        .serviceUnavailable, type: "unavailable",
        message: RefundWording.unconfirmed + " Retrying with the same key is safe — " + RefundWording.neverTwice,
        headers: ["Retry-After": "1"])
}

extension IdempotencyError {
    /// The answer for a refund request: as for a payment, in a refund's words.
    var refundHTTPError: HTTPError {
        switch self {
        case .mismatch(let field):
            HTTPError(
                .unprocessableContent, type: "idempotency_mismatch",
                message: "This idempotency key was used with a different refund. Use a new key for a new refund.",
                field: field)
        case .inProgress:
            HTTPError(
                .conflict, type: "idempotency_in_progress",
                message: "A refund with this idempotency key is still being processed. Retry in a moment.",
                headers: ["Retry-After": "1"])
        }
    }
}

extension RefundPlanError: HTTPErrorConvertible {
    public var httpError: HTTPError {
        switch self {
        case .nothingSelected:
            .invalidRefund(RefundWording.nothingSelected, field: "lines")
        case .unknownLine(let position):
            .invalidRefund("The order has no line \(position).", field: "lines")
        case .duplicateLine(let position):
            .invalidRefund("Line \(position) is named twice.", field: "lines")
        case .quantityNotRefundable(let position, let refundable):
            .invalidRefund(
                refundable == 0
                    ? "Line \(position) has nothing left to refund."
                    : "Line \(position) has \(refundable) left to refund: choose from 1 to \(refundable).",
                field: "lines")
        case .shippingNotRefundable:
            .invalidRefund(RefundWording.shippingNotRefundable, field: "shipping")
        case .invalidAmount:
            .invalidRefund("An amount above zero, in the order's currency.", field: "amount")
        case .nothingToRefund:
            .invalidRefund(RefundWording.nothingToRefund, field: "lines")
        case .exceedsRemaining(let remaining):
            HTTPError(
                .conflict, type: "refund_exceeds_remaining",
                message: RefundWording.exceedsRemaining(remaining.description))
        case .notCancellable(let fulfilment):
            HTTPError(
                .conflict, type: "not_cancellable",
                message: RefundWording.notCancellable(fulfilment.rawValue))
        }
    }
}
