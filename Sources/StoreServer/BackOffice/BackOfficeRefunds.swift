import AdminViews
import CheckoutKit
import Foundation
import HTTPServer
import StoreDatabase
import StoreServices

/// Refunds and cancellations from the back office's pages (docs/BEHAVIOUR.md §14), through the
/// same ``RefundService`` as the JSON API:
///
/// - The refund form (`refund`): units of each line with **Restock**, the shipping, or a goodwill
///   amount; a reason and a note. **Review refund** is a GET: the review shows what the refund
///   gives back (``RefundService/quote(_:_:)``) and mints the key its **Refund €X.XX** form
///   carries, so the same form sent twice — a double click, a resubmission — refunds once.
///   Problems come back on the form as typed, beside their fields.
/// - **Cancel order** on the order's page (`manage_orders`): a form whose key was minted with the
///   page, so two presses of it cancel once; two people's pages hold two keys, and the second is
///   refused with the order's new state.
///
/// A press that finds the same form still being sent by an earlier one waits for that one's
/// outcome (up to 10 s) and answers with the same redirect, since a browser shows only the last
/// answer of a double click.
struct BackOfficeRefunds: Sendable {
    let refunds: RefundService
    let orders: OrderManagement

    func register(on routes: inout RouteTable) {
        routes.staffPage(.get, AdminPaths.refundPattern, .refund) { page in try await form(page) }
        routes.staffPage(.get, AdminPaths.refundReviewPattern, .refund) { page in try await review(page) }
        routes.staffPage(.post, AdminPaths.refundPattern, .refund) { page in try await confirm(page) }
        routes.staffPage(.post, AdminPaths.cancelOrderPattern, .manageOrders) { page in try await cancel(page) }
    }

    // MARK: The form and its review

    /// The refund form: fresh, or as typed when its fields are in the query (the review's **Change**).
    private func form(_ page: StaffPage) async throws -> Response {
        let id = try page.parameter(OrderID.self)
        guard let loaded = try await load(id) else { return page.error(.notFound) }
        let (managed, order) = loaded
        let fields = Storefront.parameters(page.request.queryItems)
        let form =
            Self.isTyped(fields)
            ? Self.read(fields, order: order, checkUnits: false, currency: order.total.currency).form
            : AdminRefundForm.fresh(lineCount: order.lines.count)
        var clean = form
        clean.errors = [:]
        return page.respond(AdminPages.refund(Self.refundPage(managed, order, form: clean), context: page.context))
    }

    /// **Review refund**: the amount and what it is made of, with a fresh key; or the form again
    /// with its problems.
    private func review(_ page: StaffPage) async throws -> Response {
        let id = try page.parameter(OrderID.self)
        guard let loaded = try await load(id) else { return page.error(.notFound) }
        let (managed, order) = loaded
        let fields = Storefront.parameters(page.request.queryItems)
        var (form, request) = Self.read(fields, order: order, checkUnits: true, currency: order.total.currency)
        guard let request else {
            return formAgain(page, managed, order, form, status: .unprocessableContent)
        }
        let plan: RefundPlan
        do {
            plan = try await refunds.quote(id, request.selection)
        } catch RefundRecordError.orderNotFound {
            return page.error(.notFound)
        } catch RefundRecordError.plan(let problem) {
            Self.explain(problem, in: &form, selection: request.selection, locale: page.context.locale)
            return formAgain(page, managed, order, form, status: Self.status(of: problem))
        }
        let currency = order.total.currency
        let remainingAfter = Money(
            minorUnits: max(0, order.remaining.minorUnits - plan.amount.minorUnits), currency: currency)
        let review = AdminRefundReview(
            orderID: id.rawValue, form: form,
            lines: plan.lines.map {
                AdminRefundReview.Line(title: $0.title, quantity: $0.quantity, amount: $0.amount, restock: $0.restock)
            },
            shipping: plan.shipping, fee: plan.fee, goodwill: plan.kind == .goodwill ? plan.amount : nil,
            amount: plan.amount, reason: request.reason.kind, note: request.reason.note,
            paymentMethod: Self.paymentMethod(managed), remainingAfter: remainingAfter,
            idempotencyKey: IdempotencyKey.random().rawValue)
        return page.respond(AdminPages.refundReview(review, context: page.context))
    }

    /// **Refund €X.XX**: the refund, once per key; the order's page with what came of it.
    private func confirm(_ page: StaffPage) async throws -> Response {
        let id = try page.parameter(OrderID.self)
        guard let loaded = try await load(id) else { return page.error(.notFound) }
        let (managed, order) = loaded
        // What the review showed is checked by the service, not against the order as it is now:
        // a form sent again after its refund succeeded is a replay, not a refund of units now gone.
        var (form, request) = Self.read(page.fields, order: order, checkUnits: false, currency: order.total.currency)
        guard let key = IdempotencyKey(rawValue: page.text(AdminFormFields.idempotencyKey)) else {
            return page.error(.unprocessable(message: "The form was incomplete. Open the order again."))
        }
        guard let request else { return formAgain(page, managed, order, form, status: .unprocessableContent) }
        let orderPath = AdminPaths.order(id.rawValue)
        do {
            let result = try await once {
                try await refunds.refund(id, request.selection, reason: request.reason, key: key, by: page.staff.actor)
            }
            switch result.refund.state {
            case .succeeded: return page.redirect(orderPath, .refunded(result.refund.amount))
            case .failed: return page.redirect(orderPath, .refundRefused(cancellation: false))
            case .pending: return page.redirect(orderPath, .refundPending)
            }
        } catch RefundRecordError.orderNotFound {
            return page.error(.notFound)
        } catch RefundRecordError.plan(let problem) {
            // Someone refunded meanwhile: the form again, against the order as it is now.
            guard let now = try await load(id) else { return page.error(.notFound) }
            Self.explain(problem, in: &form, selection: request.selection, locale: page.context.locale)
            return formAgain(page, now.0, now.1, form, status: Self.status(of: problem))
        } catch IdempotencyError.inProgress {
            return page.redirect(orderPath, .refundInProgress)
        } catch is IdempotencyError {
            return page.error(
                .unprocessable(
                    message: "This form was already used for another refund. Look at the order's refunds, then refund "
                        + "again."))
        } catch RefundServiceError.unavailable {
            return page.redirect(orderPath, .refundPending)
        }
    }

    // MARK: Cancel order

    /// **Cancel order**: everything that remains refunded and restocked, once per key.
    private func cancel(_ page: StaffPage) async throws -> Response {
        let id = try page.parameter(OrderID.self)
        guard let key = IdempotencyKey(rawValue: page.text(AdminFormFields.idempotencyKey)),
            let expected = FulfilmentStatus(rawValue: page.text(AdminFormFields.currentStatus))
        else { return page.error(.unprocessable(message: "The form was incomplete. Open the order again.")) }
        guard let managed = try await orders.order(id) else { return page.error(.notFound) }
        // An order that moved on since the page was shown is not cancelled from it; one cancelled
        // meanwhile is the service's to tell (this form's own cancellation is replayed).
        if managed.fulfilment != expected && managed.fulfilment != .cancelled {
            return page.error(.conflict(.order(id: id.rawValue, now: managed.fulfilment)))
        }
        guard let reason = RefundReason(kind: .cancelled, note: nil) else { return page.error(.serverError) }
        let order = AdminPaths.order(id.rawValue)
        do {
            let result = try await once {
                try await refunds.refund(id, .cancellation, reason: reason, key: key, by: page.staff.actor)
            }
            switch result.refund.state {
            case .succeeded: return page.redirect(order, .orderCancelled(result.refund.amount))
            case .failed: return page.redirect(order, .refundRefused(cancellation: true))
            case .pending: return page.redirect(order, .refundPending)
            }
        } catch RefundRecordError.orderNotFound {
            return page.error(.notFound)
        } catch RefundRecordError.plan(.notCancellable(let now)) {
            return page.error(.conflict(.order(id: id.rawValue, now: now)))
        } catch RefundRecordError.refundPending {
            return page.redirect(order, .cancelWaitsForRefund)
        } catch RefundRecordError.plan(let problem) {
            return page.error(.unprocessable(message: problem.httpError.message))
        } catch IdempotencyError.inProgress {
            return page.redirect(order, .refundInProgress)
        } catch is IdempotencyError {
            return page.error(.unprocessable(message: "The form was incomplete. Open the order again."))
        } catch RefundServiceError.unavailable {
            return page.redirect(order, .refundPending)
        }
    }

    // MARK: Helpers

    /// Makes the refund; when the same form is still being sent by an earlier press (a double
    /// click), waits for that one's outcome — up to 10 s — and answers with it.
    private func once(_ refund: () async throws -> RefundResult) async throws -> RefundResult {
        for _ in 0..<50 {
            do {
                return try await refund()
            } catch IdempotencyError.inProgress {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        return try await refund()
    }

    /// The order as the back office reads it and as a refund sees it; `nil` when there is none.
    private func load(_ id: OrderID) async throws -> (ManagedOrder, RefundableOrder)? {
        guard let managed = try await orders.order(id), let order = try await refunds.refundable(id) else {
            return nil
        }
        return (managed, order)
    }

    private func formAgain(
        _ page: StaffPage, _ managed: ManagedOrder, _ order: RefundableOrder, _ form: AdminRefundForm,
        status: HTTPStatus
    ) -> Response {
        page.respond(
            AdminPages.refund(Self.refundPage(managed, order, form: form), context: page.context), status: status)
    }

    static func refundPage(
        _ managed: ManagedOrder, _ order: RefundableOrder, form: AdminRefundForm
    )
        -> AdminRefundPage
    {
        let paid = order.paidPerLine
        return AdminRefundPage(
            orderID: managed.id.rawValue,
            lines: order.lines.indices.map { position in
                AdminRefundPage.Line(
                    position: position, title: order.lines[position].title, quantity: order.lines[position].quantity,
                    refundable: order.refundableUnits(at: position), paid: paid[position])
            },
            refundableShipping: order.shipping.isPositive && !order.shippingHeld ? order.shipping : nil,
            paid: order.total, refunded: order.heldAmount, remaining: order.remaining, form: form)
    }

    static func paymentMethod(_ managed: ManagedOrder) -> String {
        AdminOrderPage.Payment.methodText(managed.order.paymentMethod, cardBrand: managed.order.cardBrand)
    }

    /// 409 when the order's refunds left too little for this one, 422 for anything else.
    static func status(of problem: RefundPlanError) -> HTTPStatus {
        switch problem {
        case .exceedsRemaining, .quantityNotRefundable, .shippingNotRefundable: .conflict
        default: .unprocessableContent
        }
    }

    // MARK: Reading the form

    /// A refund the form asks for, read and checked as far as the form alone allows.
    struct Request {
        let selection: RefundSelection
        let reason: RefundReason
    }

    /// Whether `fields` hold the refund form as sent (or as the **Change** link sends it back).
    static func isTyped(_ fields: [String: String]) -> Bool {
        fields.keys.contains {
            $0 == AdminFormFields.reason || $0 == AdminFormFields.refundAmount || $0 == AdminFormFields.note
                || $0 == AdminFormFields.refundShipping || $0.hasPrefix("quantity_") || $0.hasPrefix("restock_")
        }
    }

    /// The form's fields as typed, and the refund they ask for when they have no problem.
    ///
    /// `checkUnits` also checks each line's units against what it has left now (the review);
    /// the confirming form leaves that to the service, which replays a form sent again.
    static func read(
        _ fields: [String: String], order: RefundableOrder, checkUnits: Bool, currency: Currency
    ) -> (form: AdminRefundForm, request: Request?) {
        var form = AdminRefundForm()
        var choices: [RefundSelection.LineChoice] = []
        for position in order.lines.indices {
            let restock = fields[AdminFormFields.refundRestock(position)] == AdminFormFields.checkedValue
            if restock { form.restock.insert(position) }
            let typed = fields[AdminFormFields.refundQuantity(position)] ?? ""
            let text = typed.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            form.quantities[position] = typed
            let refundable = order.refundableUnits(at: position)
            guard text.count <= 9, text.allSatisfy(\.isWholeNumberDigit), let units = Int(text) else {
                form.errors[.quantity(position)] = "A whole number of units, from 0 to \(refundable)."
                continue
            }
            if checkUnits, units > refundable {
                form.errors[.quantity(position)] = Self.unitsProblem(refundable: refundable)
                continue
            }
            if units > 0 { choices.append(.init(position: position, quantity: units, restock: restock)) }
        }
        form.shipping = fields[AdminFormFields.refundShipping] == AdminFormFields.checkedValue
        form.amount = fields[AdminFormFields.refundAmount] ?? ""
        var goodwill: Money?
        let amountText = form.amount.trimmingCharacters(in: .whitespaces)
        if !amountText.isEmpty {
            let example = ProductRules.example(currency)
            if let amount = try? Money(amount: amountText, currency: currency), amount.isPositive {
                goodwill = amount
            } else {
                form.errors[.amount] = "An amount above zero, like \(example), with a dot for decimals."
            }
            if !choices.isEmpty || form.shipping { form.errors[.amount] = RefundWording.linesOrAmount }
        }
        form.reason = fields[AdminFormFields.reason].flatMap(RefundReasonKind.init(rawValue:)).flatMap {
            AdminRefundForm.reasons.contains($0) ? $0 : nil
        }
        if form.reason == nil { form.errors[.reason] = "Choose a reason." }
        form.note = fields[AdminFormFields.note] ?? ""
        let note = form.note.trimmingCharacters(in: .whitespacesAndNewlines)
        if note.count > RefundReason.maximumNoteLength {
            form.errors[.note] = RefundWording.noteTooLong
        } else if CardNumberDetector.containsCardNumber(note) {
            form.errors[.note] = StockAdjustmentError.cardNumberInNote.message
        }
        let nothing = choices.isEmpty && !form.shipping && amountText.isEmpty
        let unitProblems = form.errors.keys.contains { if case .quantity = $0 { true } else { false } }
        if nothing && !unitProblems { form.errors[.items] = RefundWording.nothingSelected }
        guard form.errors.isEmpty, let kind = form.reason, let reason = RefundReason(kind: kind, note: note) else {
            return (form, nil)
        }
        let selection: RefundSelection = goodwill.map { .goodwill($0) } ?? .lines(choices, shipping: form.shipping)
        return (form, Request(selection: selection, reason: reason))
    }

    static func unitsProblem(refundable: Int) -> String {
        refundable == 0
            ? "Nothing is left to refund on this line."
            : "Only \(refundable) left to refund: choose from 0 to \(refundable)."
    }

    /// Puts the refund service's refusal beside the field it is about.
    static func explain(
        _ problem: RefundPlanError, in form: inout AdminRefundForm, selection: RefundSelection, locale: Locale
    ) {
        let isGoodwill = if case .goodwill = selection { true } else { false }
        switch problem {
        case .nothingSelected: form.errors[.items] = RefundWording.nothingSelected
        case .unknownLine, .duplicateLine: form.errors[.items] = "The order's lines changed. Open the order again."
        case .quantityNotRefundable(let position, let refundable):
            form.errors[.quantity(position)] = unitsProblem(refundable: refundable)
        case .shippingNotRefundable: form.errors[.shipping] = RefundWording.shippingNotRefundable
        case .invalidAmount: form.errors[.amount] = "An amount above zero, in the order's currency."
        case .nothingToRefund: form.errors[.items] = RefundWording.nothingToRefund
        case .exceedsRemaining(let remaining):
            form.errors[isGoodwill ? .amount : .items] = RefundWording.exceedsRemaining(
                remaining.formatted(locale: locale))
        case .notCancellable(let fulfilment):
            form.errors[.items] = RefundWording.notCancellable(fulfilment.label.lowercased())
        }
    }
}

extension Character {
    fileprivate var isWholeNumberDigit: Bool { isASCII && isNumber }
}
