import CheckoutKit
import Foundation
import PaymentProvider
import StoreAPI
import StoreDatabase
import StoreServerTestSupport
import StoreTestSupport
import Testing

@testable import StoreServer

extension TestStore {
    /// Asks for a refund of order `id` under `key` (a fresh one unless given), as `token`.
    func refund(
        _ id: String, _ body: RefundRequestBody, key: String = UUID().uuidString, token: String
    ) async throws -> Reply {
        try await send(
            AdminEndpoints.refundOrder, id, body: body, token: token,
            headers: [Endpoints.idempotencyKeyHeader: key])
    }

    /// Asks for order `id` to be cancelled under `key`, as `token`.
    func cancel(_ id: String, key: String = UUID().uuidString, token: String) async throws -> Reply {
        try await send(
            AdminEndpoints.cancelOrder, id, body: CancelOrderRequest(note: "Customer asked"), token: token,
            headers: [Endpoints.idempotencyKeyHeader: key])
    }

    /// Order `id` as the back office reads it.
    func adminOrder(_ id: String, token: String) async throws -> AdminOrderBody {
        try await send(AdminEndpoints.order, id, token: token).decode(AdminOrderBody.self)
    }

    /// What the provider gave back for the payment of order `id`, refund by refund.
    func providerRefunds(of id: String) async throws -> [SandboxRefund] {
        let chargeKey = try await database.sql.read { connection in
            try connection.queryFirst("SELECT attempt_id FROM orders WHERE id = \(id)")?.decode(
                "attempt_id", as: String.self)
        }
        return try await provider.refunds().filter { $0.chargeKey == chargeKey && $0.refundID != nil }
    }

    /// The sum of the order's succeeded refunds as the store records them, and its two sums.
    func refundSums(of id: String) async throws -> (succeeded: Int64, held: Int64, refunded: Int64) {
        try await database.sql.read { connection in
            let succeeded =
                try connection.queryFirst(
                    """
                    SELECT CAST(COALESCE(SUM(amount_minor), 0) AS BIGINT) AS n FROM refunds
                    WHERE order_id = \(id) AND state = 'succeeded'
                    """)?.decode("n", as: Int64.self) ?? -1
            let row = try connection.queryFirst(
                "SELECT refund_held_minor, refunded_minor FROM orders WHERE id = \(id)")
            return (
                succeeded, try row?.decode("refund_held_minor", as: Int64.self) ?? -1,
                try row?.decode("refunded_minor", as: Int64.self) ?? -1
            )
        }
    }
}

/// Refunds and cancellations through the JSON API (docs/BEHAVIOUR.md §14), against the sandbox
/// provider's own ledger: each refund sent once, never more than was paid, stock back once.
@Suite("Back office: refunds and cancellations") struct AdminRefundTests {
    static func damaged(_ lines: [RefundLineRequest]) -> RefundRequestBody {
        RefundRequestBody(lines: lines, reason: "damaged", note: "Box crushed")
    }

    @Test(
        "units refunded: what they were paid, restocked once, replayed for the same key, partially then fully refunded",
        arguments: Backend.allCases)
    func linesRefund(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let shopper = try await store.newSession()
            let order = try await store.placeOrder([(1, 2), (3, 1)], token: shopper)
            let owner = try await store.ownerToken()
            let (stockOne, stockThree) = (try await store.stock(1), try await store.stock(3))
            let oneUnit = Self.damaged([RefundLineRequest(position: 0, quantity: 1)])

            let quote = try await store.send(AdminEndpoints.quoteRefund, order.id, body: oneUnit, token: owner)
            #expect(quote.status == 200)
            let quoted = try quote.decode(RefundQuoteBody.self)
            #expect(quoted.amount == order.lines[0].unitPrice)
            #expect(quoted.remaining == order.total)
            #expect(try await store.refundSums(of: order.id) == (0, 0, 0), "a quote records nothing")

            let key = UUID().uuidString
            let first = try await store.refund(order.id, oneUnit, key: key, token: owner)
            #expect(first.status == 201)
            let refund = try first.decode(RefundBody.self)
            #expect(refund.status == "succeeded")
            #expect(refund.kind == "lines")
            #expect(refund.amount == quoted.amount)
            #expect(refund.lines.map(\.restock) == [true])
            #expect(refund.note == "Box crushed")
            #expect(refund.requestedBy == "owner@onlinestore.test")
            #expect(try await store.stock(1) == stockOne + 1)

            // The same request again, as a double-click or a retry would send it: the same refund.
            let again = try await store.refund(order.id, oneUnit, key: key, token: owner)
            #expect(again.status == 201)
            #expect(again.header("Idempotent-Replayed") == "true")
            #expect(try again.decode(RefundBody.self).id == refund.id)
            #expect(try await store.stock(1) == stockOne + 1)
            #expect(try await store.providerRefunds(of: order.id).count == 1)
            // Another request under that key.
            let other = try await store.refund(
                order.id, Self.damaged([RefundLineRequest(position: 0, quantity: 2)]), key: key, token: owner)
            #expect(other.status == 422)
            #expect(try other.decode(ErrorBody.self).error.type == "idempotency_mismatch")
            #expect(try other.decode(ErrorBody.self).error.field == "lines")

            var admin = try await store.adminOrder(order.id, token: owner)
            #expect(admin.paymentStatus == "partially_refunded")
            #expect(admin.refunds.map(\.id) == [refund.id])
            #expect(admin.timeline.map(\.kind).suffix(2) == ["refund_requested", "refunded"])
            #expect(try await store.adminOrders("payment_status=partially_refunded", token: owner).total == 1)

            // Everything else, the cap not restocked: the shipping and the fee go back too.
            let rest = try await store.refund(
                order.id,
                RefundRequestBody(
                    lines: [
                        RefundLineRequest(position: 0, quantity: 1),
                        RefundLineRequest(position: 1, quantity: 1, restock: false),
                    ], shipping: order.shipping.isPositive, reason: "returned"), token: owner)
            #expect(rest.status == 201)
            #expect(try rest.decode(RefundBody.self).fee == order.fee)
            admin = try await store.adminOrder(order.id, token: owner)
            #expect(admin.paymentStatus == "refunded")
            #expect(try await store.stock(1) == stockOne + 2)
            #expect(try await store.stock(3) == stockThree)
            let sums = try await store.refundSums(of: order.id)
            #expect(sums.succeeded == order.total.minorUnits)
            #expect(sums.refunded == order.total.minorUnits && sums.held == order.total.minorUnits)
            let given = try await store.providerRefunds(of: order.id)
            #expect(given.count == 2)
            #expect(given.compactMap(\.amount).reduce(0) { $0 + $1.minorUnits } == order.total.minorUnits)

            // Nothing remains: the next refund reaches no provider.
            let more = try await store.refund(
                order.id, RefundRequestBody(amount: eur(1), reason: "goodwill"), token: owner)
            #expect(more.status == 409)
            let refusal = try more.decode(RefundExceedsRemainingBody.self)
            #expect(refusal.error.type == "refund_exceeds_remaining")
            #expect(refusal.remaining == eur(0))
            #expect(try await store.providerRefunds(of: order.id).count == 2)

            // The stock ledger names the refunds.
            let returned = try await store.database.sql.read { connection in
                try connection.queryFirst(
                    "SELECT COUNT(*) AS n FROM stock_movements WHERE reason = 'returned' AND refund_id IS NOT NULL")?
                    .decode("n", as: Int.self)
            }
            #expect(returned == 2)
        }
    }

    @Test(
        "20 refunds with 20 keys at once on one order: never more than was charged, the rest 409 with what remains",
        arguments: Backend.allCases)
    func concurrentRefunds(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let order = try await store.placeOrder([(2, 1)], token: try await store.newSession())
            let owner = try await store.ownerToken()
            // Just over a fifth of the total: four fit, the fifth does not.
            let part = eur(order.total.minorUnits / 5 + 1)
            let replies = try await withThrowingTaskGroup(of: TestStore.Reply.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        try await store.refund(
                            order.id, RefundRequestBody(amount: part, reason: "goodwill"), token: owner)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let succeeded = replies.filter { $0.status == 201 }
            let refused = replies.filter { $0.status == 409 }
            #expect(succeeded.count == 4)
            #expect(refused.count == 16)
            for reply in refused {
                let body = try reply.decode(RefundExceedsRemainingBody.self)
                #expect(body.error.type == "refund_exceeds_remaining")
                #expect(body.remaining.minorUnits < part.minorUnits)
            }
            let sums = try await store.refundSums(of: order.id)
            #expect(sums.succeeded == 4 * part.minorUnits)
            #expect(sums.succeeded <= order.total.minorUnits)
            let given = try await store.providerRefunds(of: order.id)
            #expect(given.count == 4)
            #expect(given.compactMap(\.amount).reduce(0) { $0 + $1.minorUnits } == sums.succeeded)
        }
    }

    @Test(
        "Cancel order: all of it back, every unit restocked, the code's use given back — once, however often clicked",
        arguments: Backend.allCases)
    func cancellation(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let shopper = try await store.newSession()
            let applied = try await store.send(
                Endpoints.applyPromotion, body: ApplyPromotionRequest(code: "RUN10"), token: shopper)
            #expect(applied.status == 200)
            let order = try await store.placeOrder([(1, 2), (3, 1)], token: shopper)
            #expect(order.promotion == "RUN10")
            let owner = try await store.ownerToken()
            let (stockOne, stockThree) = (try await store.stock(1), try await store.stock(3))
            let uses = {
                try await store.database.sql.read {
                    try $0.queryFirst("SELECT times_used FROM promotions WHERE code = 'RUN10'")?.decode(
                        "times_used", as: Int.self)
                }
            }
            let usedBefore = try await uses()

            let key = UUID().uuidString
            let replies = try await withThrowingTaskGroup(of: TestStore.Reply.self) { group in
                for _ in 0..<5 { group.addTask { try await store.cancel(order.id, key: key, token: owner) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // One of them did it; the others, with its key, were told it was in progress or given its answer.
            #expect(replies.allSatisfy { $0.status == 201 || $0.status == 409 })
            let done = try #require(replies.first { $0.status == 201 }).decode(RefundBody.self)
            #expect(done.kind == "cancellation")
            #expect(done.amount == order.total)
            #expect(try await store.cancel(order.id, key: key, token: owner).status == 201)
            // Another click with a new key: nothing more.
            let later = try await store.cancel(order.id, token: owner)
            #expect(later.status == 409)
            #expect(try later.decode(ErrorBody.self).error.type == "not_cancellable")

            let admin = try await store.adminOrder(order.id, token: owner)
            #expect(admin.fulfilmentStatus == "cancelled")
            #expect(admin.paymentStatus == "refunded")
            #expect(admin.refunds.count == 1)
            #expect(try await store.stock(1) == stockOne + 2)
            #expect(try await store.stock(3) == stockThree + 1)
            #expect(try await uses() == usedBefore.map { $0 - 1 })
            #expect(try await store.providerRefunds(of: order.id).count == 1)

            // A shipped order cannot be cancelled.
            let shipped = try await store.placeOrder([(4, 1)], token: try await store.newSession())
            #expect(try await store.moveOrder(shipped.id, to: "packed", token: owner).status == 200)
            #expect(
                try await store.moveOrder(shipped.id, to: "shipped", tracking: "1Z 999", token: owner).status == 200)
            let refused = try await store.cancel(shipped.id, token: owner)
            #expect(refused.status == 409)
            #expect(try refused.decode(ErrorBody.self).error.type == "not_cancellable")
            #expect(try await store.providerRefunds(of: shipped.id).isEmpty)
        }
    }

    @Test(
        "a refund the provider refuses: 402, nothing restocked, the amount refundable again; a cancellation undone",
        arguments: Backend.allCases)
    func refusedRefund(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let order = try await store.placeOrder(
                [(1, 1)], token: try await store.newSession(), method: #"{"type":"card","token":"tok_refundFail"}"#)
            let owner = try await store.ownerToken()
            let stock = try await store.stock(1)
            let refused = try await store.refund(
                order.id, Self.damaged([RefundLineRequest(position: 0, quantity: 1)]), token: owner)
            #expect(refused.status == 402)
            let body = try refused.decode(RefundFailedBody.self)
            #expect(body.error.type == "refund_failed")
            #expect(body.error.reason == "refund_refused")
            #expect(body.refund.status == "failed")
            #expect(try await store.stock(1) == stock)
            #expect(try await store.refundSums(of: order.id) == (0, 0, 0))

            let cancel = try await store.cancel(order.id, token: owner)
            #expect(cancel.status == 402)
            let admin = try await store.adminOrder(order.id, token: owner)
            #expect(admin.fulfilmentStatus == "unfulfilled", "the cancellation is undone")
            #expect(admin.paymentStatus == "paid")
            #expect(admin.refunds.map(\.status) == ["failed", "failed"])
            #expect(try await store.stock(1) == stock)
        }
    }

    @Test(
        "a lost answer: pending, then settled by asking the provider — at the retry and by reconciliation — never refunded twice",
        arguments: Backend.allCases)
    func lostAnswer(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let order = try await store.placeOrder(
                [(1, 2)], token: try await store.newSession(),
                method: #"{"type":"card","token":"tok_refundTimeout"}"#)
            let owner = try await store.ownerToken()
            let stock = try await store.stock(1)
            let oneUnit = Self.damaged([RefundLineRequest(position: 0, quantity: 1)])

            let key = UUID().uuidString
            let lost = try await store.refund(order.id, oneUnit, key: key, token: owner)
            #expect(lost.status == 503)
            #expect(try lost.decode(ErrorBody.self).error.type == "unavailable")
            #expect(try await store.adminOrder(order.id, token: owner).refunds.map(\.status) == ["pending"])
            #expect(try await store.stock(1) == stock, "nothing restocked before the money went back")
            #expect(try await store.providerRefunds(of: order.id).count == 1, "the provider did refund")

            // Cancelling waits until that refund is settled: what it would give back is not known.
            let cancel = try await store.cancel(order.id, token: owner)
            #expect(cancel.status == 409)
            #expect(try cancel.decode(ErrorBody.self).error.type == "refund_pending")

            let retried = try await store.refund(order.id, oneUnit, key: key, token: owner)
            #expect(retried.status == 201)
            #expect(try retried.decode(RefundBody.self).status == "succeeded")
            #expect(try await store.stock(1) == stock + 1)

            // Another lost answer, left alone: reconciliation settles it.
            let second = try await store.refund(order.id, oneUnit, token: owner)
            #expect(second.status == 503)
            #expect(await store.server.reconcilePayments() >= 1)
            let admin = try await store.adminOrder(order.id, token: owner)
            #expect(admin.refunds.map(\.status) == ["succeeded", "succeeded"])
            #expect(try await store.stock(1) == stock + 2)
            let given = try await store.providerRefunds(of: order.id)
            #expect(given.count == 2)
            #expect(Set(given.map(\.key)) == Set(admin.refunds.map(\.id)))
        }
    }

    @Test("bad refund requests are refused before anything is recorded", arguments: Backend.allCases)
    func badRequests(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let order = try await store.placeOrder([(1, 1)], token: try await store.newSession())
            let owner = try await store.ownerToken()
            let noKey = try await store.send(
                AdminEndpoints.refundOrder, order.id, body: RefundRequestBody(amount: eur(100), reason: "goodwill"),
                token: owner)
            #expect(noKey.status == 400)
            let cases: [(RefundRequestBody, Int, String)] = [
                (RefundRequestBody(reason: "damaged"), 422, "lines"),
                (
                    RefundRequestBody(lines: [RefundLineRequest(position: 5, quantity: 1)], reason: "damaged"), 422,
                    "lines"
                ),
                (
                    RefundRequestBody(lines: [RefundLineRequest(position: 0, quantity: 2)], reason: "damaged"), 422,
                    "lines"
                ),
                (
                    RefundRequestBody(lines: [RefundLineRequest(position: 0, quantity: 0)], reason: "damaged"), 422,
                    "lines"
                ),
                (RefundRequestBody(amount: eur(0), reason: "goodwill"), 422, "amount"),
                (
                    RefundRequestBody(
                        lines: [RefundLineRequest(position: 0, quantity: 1)], amount: eur(1), reason: "goodwill"), 422,
                    "amount"
                ),
                (RefundRequestBody(amount: eur(100), reason: "because"), 422, "reason"),
                (RefundRequestBody(amount: eur(100), reason: "cancelled"), 422, "reason"),
                (
                    RefundRequestBody(amount: eur(100), reason: "other", note: String(repeating: "x", count: 501)), 422,
                    "note"
                ),
            ]
            for (body, status, field) in cases {
                let reply = try await store.refund(order.id, body, token: owner)
                #expect(reply.status == status, "\(body)")
                #expect(try reply.decode(ErrorBody.self).error.field == field, "\(body)")
            }
            let missing = try await store.refund(
                "ord_" + String(repeating: "a", count: 26), RefundRequestBody(amount: eur(1), reason: "goodwill"),
                token: owner)
            #expect(missing.status == 404)
            #expect(try await store.refundSums(of: order.id) == (0, 0, 0))
            #expect(try await store.providerRefunds(of: order.id).isEmpty)
        }
    }
}
