import AdminViews
import CheckoutKit
import Foundation
import StoreAPI
import StoreServerTestSupport
import StoreTestSupport
import Testing

@testable import StoreServer

extension TestBrowser {
    /// The review page of a refund of order `id` chosen with `fields`, as the refund form's GET sends it.
    func reviewRefund(_ id: String, _ fields: [(String, String)]) async throws -> TestStore.Reply {
        let query = fields.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&")
        return try await get(AdminPaths.refundReview(id) + "?" + query)
    }
}

/// Refunds and cancellations from the back office's pages (docs/BEHAVIOUR.md §14) in a browser
/// without JavaScript: the amount shown before **Refund €X.XX** confirms it, each form once
/// however often it is sent, problems beside their fields, the roles and the CSRF token checked.
@Suite("Back office: refund and cancel pages") struct BackOfficeRefundPagesTests {
    static let damagedUnit = [
        ("quantity_0", "1"), ("restock_0", "on"), ("reason", "damaged"), ("note", "Box crushed"),
    ]

    @Test(
        "refund by lines: the form, the review with its amount, Refund €X.XX once however often it is sent",
        arguments: Backend.allCases)
    func refundByLines(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let order = try await store.placeOrder([(1, 2), (3, 1)], token: try await store.newSession())
            let stock = try await store.stock(1)
            let browser = TestBrowser(base: store.base)
            try await browser.signInToBackOffice()

            let orderPage = try await browser.get(AdminPaths.order(order.id))
            #expect(orderPage.text.contains(#"href="\#(AdminPaths.refund(order.id))""#))
            #expect(orderPage.text.contains("Cancel order"))
            let form = try await browser.get(AdminPaths.refund(order.id))
            #expect(form.status == 200)
            #expect(form.text.contains(#"action="\#(AdminPaths.refundReview(order.id))""#))
            #expect(form.text.contains(#"name="restock_0" value="on" checked"#), "Restock is on by default")
            #expect(form.text.contains(#"name="quantity_1""#))

            let unit = order.lines[0].unitPrice
            let review = try await browser.reviewRefund(order.id, Self.damagedUnit)
            #expect(review.status == 200)
            #expect(review.text.contains("Refund €\(unit.amountText)</button>"))
            #expect(review.text.contains("Arrived damaged: Box crushed"))
            #expect(try await store.refundSums(of: order.id) == (0, 0, 0), "a review records nothing")
            let key = try #require(TestBrowser.field("idempotency_key", in: review.text))
            let confirm = Self.damagedUnit + [("idempotency_key", key)]

            let refunded = try await browser.post(AdminPaths.refund(order.id), confirm)
            #expect(refunded.status == 303)
            #expect(refunded.header("Location") == AdminPaths.order(order.id))
            let after = try await browser.follow(refunded)
            #expect(after.text.contains("Refunded €\(unit.amountText)."))
            #expect(after.text.contains("Partially refunded"))
            #expect(after.text.contains("1 × \(order.lines[0].title) (restocked)"))
            #expect(after.text.contains("Refund of €\(unit.amountText) asked for"))
            #expect(after.text.contains("Refunded €\(unit.amountText)</strong>"))

            // The same form again (a double click, the back button and send again): the same refund.
            let again = try await browser.post(AdminPaths.refund(order.id), confirm)
            #expect(again.status == 303)
            #expect(try await browser.follow(again).text.contains("Refunded €\(unit.amountText)."))
            #expect(try await store.providerRefunds(of: order.id).count == 1)
            #expect(try await store.adminOrder(order.id, token: try await store.ownerToken()).refunds.count == 1)
            #expect(try await store.stock(1) == stock + 1)

            // Problems come back on the form, as typed, beside their fields.
            let tooMany = try await browser.reviewRefund(
                order.id, [("quantity_0", "5"), ("restock_0", "on"), ("reason", "damaged")])
            #expect(tooMany.status == 422)
            #expect(tooMany.text.contains("Only 1 left to refund: choose from 0 to 1."))
            #expect(tooMany.text.contains(#"name="quantity_0" value="5""#))
            #expect(tooMany.text.contains(##"href="#quantity-0""##))
            let nothing = try await browser.reviewRefund(order.id, [("reason", "")])
            #expect(nothing.status == 422)
            #expect(nothing.text.contains("Choose at least one line, the shipping or an amount."))
            #expect(nothing.text.contains("Choose a reason."))
            let remaining = try #require(
                try await store.adminOrder(order.id, token: try await store.ownerToken()).refunds.first.map {
                    Money(minorUnits: order.total.minorUnits - $0.amount.minorUnits, currency: order.total.currency)
                })
            let tooMuch = try await browser.reviewRefund(order.id, [("amount", "9999.00"), ("reason", "goodwill")])
            #expect(tooMuch.status == 409)
            #expect(tooMuch.text.contains("That is more than remains to refund (€\(remaining.amountText))."))
            #expect(tooMuch.text.contains(#"value="9999.00""#))
            let both = try await browser.reviewRefund(
                order.id, [("quantity_1", "1"), ("amount", "1.00"), ("reason", "goodwill")])
            #expect(both.status == 422)
            #expect(both.text.contains(RefundWording.linesOrAmount))

            // The review's Change link brings the form back as typed.
            let change = try await browser.get(
                AdminPaths.refund(
                    order.id,
                    form: AdminRefundForm(
                        quantities: [1: "1"], restock: [], reason: .returned, note: "Too small")))
            #expect(change.text.contains(#"name="quantity_1" value="1""#))
            #expect(!change.text.contains(#"name="restock_1" value="on" checked"#))
            #expect(change.text.contains(#"value="returned" selected"#))
        }
    }

    @Test(
        "a refund confirmed by two people at once, each from their own review: one refund, the other told why",
        arguments: Backend.allCases)
    func twoPeopleRefundAtOnce(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let order = try await store.placeOrder([(1, 1)], token: try await store.newSession())
            let first = TestBrowser(base: store.base)
            let second = TestBrowser(base: store.base)
            try await first.signInToBackOffice()
            try await second.signInToBackOffice()
            let everything = [("quantity_0", "1"), ("restock_0", "on"), ("reason", "returned")]
            var forms: [(TestBrowser, [(String, String)])] = []
            for browser in [first, second] {
                let review = try await browser.reviewRefund(order.id, everything)
                let key = try #require(TestBrowser.field("idempotency_key", in: review.text))
                forms.append((browser, everything + [("idempotency_key", key)]))
            }
            let replies = try await withThrowingTaskGroup(of: TestStore.Reply.self) { group in
                for (browser, fields) in forms {
                    group.addTask { try await browser.post(AdminPaths.refund(order.id), fields) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.filter { $0.status == 303 }.count == 1)
            let refused = try #require(replies.first { $0.status != 303 })
            #expect(refused.status == 409)
            #expect(refused.text.contains("Nothing is left to refund on this line."))
            #expect(try await store.providerRefunds(of: order.id).count == 1)
        }
    }

    @Test(
        "Cancel order: two posts of one form cancel once; another page's press is refused with the new state",
        arguments: Backend.allCases)
    func cancelOnce(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let order = try await store.placeOrder([(1, 2), (3, 1)], token: try await store.newSession())
            let (stockOne, stockThree) = (try await store.stock(1), try await store.stock(3))
            let browser = TestBrowser(base: store.base)
            let other = TestBrowser(base: store.base)
            try await browser.signInToBackOffice()
            try await other.signInToBackOffice()
            let page = try await browser.get(AdminPaths.order(order.id))
            let otherPage = try await other.get(AdminPaths.order(order.id))
            let key = try #require(TestBrowser.field("idempotency_key", in: page.text))
            let otherKey = try #require(TestBrowser.field("idempotency_key", in: otherPage.text))
            #expect(key != otherKey, "each page mints its own key")
            let fields = [("current_status", "unfulfilled"), ("idempotency_key", key)]

            let replies = try await withThrowingTaskGroup(of: TestStore.Reply.self) { group in
                for _ in 0..<2 { group.addTask { try await browser.post(AdminPaths.cancelOrder(order.id), fields) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.map(\.status) == [303, 303])
            #expect(replies.allSatisfy { $0.header("Location") == AdminPaths.order(order.id) })
            let cancelled = try await browser.follow(replies[0])
            #expect(cancelled.text.contains("Order cancelled. €\(order.total.amountText) refunded"))
            #expect(!cancelled.text.contains(">Cancel order</button>"))
            #expect(!cancelled.text.contains(#"href="\#(AdminPaths.refund(order.id))""#))
            #expect(try await store.providerRefunds(of: order.id).count == 1)
            #expect(try await store.stock(1) == stockOne + 2)
            #expect(try await store.stock(3) == stockThree + 1)

            let late = try await other.post(
                AdminPaths.cancelOrder(order.id), [("current_status", "unfulfilled"), ("idempotency_key", otherKey)])
            #expect(late.status == 409)
            #expect(late.text.contains("This order has changed"))
            #expect(late.text.contains("cancelled"))
            #expect(try await store.providerRefunds(of: order.id).count == 1)
            let admin = try await store.adminOrder(order.id, token: try await store.ownerToken())
            #expect(admin.fulfilmentStatus == "cancelled")
            #expect(admin.refunds.count == 1)
        }
    }

    @Test("the roles and the CSRF token: refused before anything is refunded or cancelled")
    func refusals() async throws {
        try await TestStore.with(.sqlite) { store in
            let order = try await store.placeOrder([(1, 1)], token: try await store.newSession())
            let catalog = TestBrowser(base: store.base)
            try await catalog.signInToBackOffice(try await store.addStaff(role: .catalog), "a long password")
            #expect(try await catalog.get(AdminPaths.refund(order.id)).status == 403)
            #expect(try await catalog.reviewRefund(order.id, Self.damagedUnit).status == 403)
            let refused = try await catalog.post(
                AdminPaths.refund(order.id), Self.damagedUnit + [("idempotency_key", "catalog-key-1")])
            #expect(refused.status == 403)
            #expect(
                try await catalog.post(
                    AdminPaths.cancelOrder(order.id),
                    [("current_status", "unfulfilled"), ("idempotency_key", "catalog-key-2")]
                ).status == 403)

            let orders = TestBrowser(base: store.base)
            try await orders.signInToBackOffice(try await store.addStaff(role: .orders), "a long password")
            let review = try await orders.reviewRefund(order.id, Self.damagedUnit)
            #expect(review.status == 200)
            let key = try #require(TestBrowser.field("idempotency_key", in: review.text))
            let forged = try await orders.post(
                AdminPaths.refund(order.id), Self.damagedUnit + [("idempotency_key", key)], csrf: "")
            #expect(forged.status == 403)
            #expect(forged.text.contains("This form has expired"))
            let forgedCancel = try await orders.post(
                AdminPaths.cancelOrder(order.id), [("current_status", "unfulfilled"), ("idempotency_key", key)],
                csrf: "")
            #expect(forgedCancel.status == 403)
            #expect(try await store.refundSums(of: order.id) == (0, 0, 0))
            #expect(try await store.providerRefunds(of: order.id).isEmpty)

            // With the token, the orders role refunds.
            let refunded = try await orders.post(
                AdminPaths.refund(order.id), Self.damagedUnit + [("idempotency_key", key)])
            #expect(refunded.status == 303)
            #expect(try await store.providerRefunds(of: order.id).count == 1)
        }
    }

    @Test("the provider refuses, or its answer is lost: said on the order's page; the same form again settles it")
    func providerOutcomes() async throws {
        try await TestStore.with(.sqlite) { store in
            let browser = TestBrowser(base: store.base)
            try await browser.signInToBackOffice()

            let failing = try await store.placeOrder(
                [(1, 1)], token: try await store.newSession(), method: #"{"type":"card","token":"tok_refundFail"}"#)
            var review = try await browser.reviewRefund(failing.id, Self.damagedUnit)
            var key = try #require(TestBrowser.field("idempotency_key", in: review.text))
            let refused = try await browser.post(
                AdminPaths.refund(failing.id), Self.damagedUnit + [("idempotency_key", key)])
            let refusedPage = try await browser.follow(refused)
            #expect(refusedPage.text.contains(RefundWording.refused))
            #expect(refusedPage.text.contains("refund_refused"))
            #expect(refusedPage.text.contains("Refund refused by the payment provider"))
            let page = try await browser.get(AdminPaths.order(failing.id))
            let cancelKey = try #require(TestBrowser.field("idempotency_key", in: page.text))
            let cancel = try await browser.post(
                AdminPaths.cancelOrder(failing.id),
                [("current_status", "unfulfilled"), ("idempotency_key", cancelKey)])
            let notCancelled = try await browser.follow(cancel)
            #expect(notCancelled.text.contains("so the order is not cancelled"))
            #expect(notCancelled.text.contains(">Cancel order</button>"))

            let lost = try await store.placeOrder(
                [(1, 2)], token: try await store.newSession(),
                method: #"{"type":"card","token":"tok_refundTimeout"}"#)
            review = try await browser.reviewRefund(lost.id, Self.damagedUnit)
            key = try #require(TestBrowser.field("idempotency_key", in: review.text))
            let confirm = Self.damagedUnit + [("idempotency_key", key)]
            let pending = try await browser.follow(try await browser.post(AdminPaths.refund(lost.id), confirm))
            #expect(pending.text.contains("confirm the refund with the payment provider. It is pending"))
            #expect(pending.text.contains("Refunds pending"))
            // Cancelling waits for that refund: what it would give back is not known yet.
            let pendingKey = try #require(TestBrowser.field("idempotency_key", in: pending.text))
            let waits = try await browser.post(
                AdminPaths.cancelOrder(lost.id), [("current_status", "unfulfilled"), ("idempotency_key", pendingKey)])
            #expect(waits.status == 303)
            let waitsPage = try await browser.follow(waits)
            #expect(waitsPage.text.contains(RefundWording.refundBeforeCancel))
            #expect(waitsPage.text.contains(">Cancel order</button>"), "not cancelled")
            let settled = try await browser.follow(try await browser.post(AdminPaths.refund(lost.id), confirm))
            #expect(settled.text.contains("Refunded €\(lost.lines[0].unitPrice.amountText)."))
            #expect(try await store.providerRefunds(of: lost.id).count == 1)
        }
    }
}
