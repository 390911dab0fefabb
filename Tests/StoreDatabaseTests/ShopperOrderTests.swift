import CheckoutKit
import Foundation
import StoreDatabase
import StoreSQL
import StoreTestSupport
import Testing

/// A shopper's orders as they read them back, with where each payment stands and its refunds
/// (docs/BEHAVIOUR.md §7, §14).
@Suite("A shopper's orders and their refunds") struct ShopperOrderTests {
    /// Records a refund of `selection` on order `id`, pending until `outcome` is recorded.
    static func refund(
        _ database: StoreDatabase, _ id: OrderID, _ selection: RefundSelection, outcome: RefundState,
        at now: Date = testNow
    ) async throws -> Refund {
        let new = NewRefund(
            id: .random(), orderID: id, key: try #require(IdempotencyKey(rawValue: UUID().uuidString)),
            fingerprint: "fp", selection: selection,
            reason: try #require(RefundReason(kind: .damaged, note: "Box crushed")), actor: .commandLine,
            leaseExpiresAt: now.addingTimeInterval(30))
        guard case .reserved(let record) = try await database.refunds.reserve(new, now: now) else {
            throw DatabaseError(kind: .other, code: "test", message: "expected a new refund")
        }
        let settled = now.addingTimeInterval(5)
        switch outcome {
        case .pending: return record.refund
        case .succeeded:
            let settledRecord = try await database.refunds.recordSucceeded(
                record.refund.id, providerRefundID: "re_1", now: settled)
            return try #require(settledRecord).refund
        case .failed:
            let settledRecord = try await database.refunds.recordFailed(
                record.refund.id, reason: "refused", now: settled)
            return try #require(settledRecord).refund
        }
    }

    static func lines(_ choices: [(position: Int, quantity: Int)]) -> RefundSelection {
        .lines(choices.map { .init(position: $0.position, quantity: $0.quantity, restock: true) }, shipping: false)
    }

    @Test(
        "succeeded and pending refunds with their lines, never a failed one; the status from what went back",
        arguments: Backend.allCases)
    func refundsOfOneOrder(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            // 10.20 + 2 × 8.95 + 4.95 shipping, paid by QR code (no fee): 33.05.
            let shopper = try await makeShopper(database, lines: [(1, 1), (3, 2)])
            let order = try await placeOrder(database, try await makeAttempt(database, shopper: shopper))
            #expect(try await database.orders.order(order.id, for: shopper) == ShopperOrder(paid: order))

            let succeeded = try await Self.refund(database, order.id, Self.lines([(1, 1)]), outcome: .succeeded)
            _ = try await Self.refund(
                database, order.id, Self.lines([(1, 1)]), outcome: .failed, at: testNow.addingTimeInterval(10))
            let pending = try await Self.refund(
                database, order.id, .goodwill(eur(1_00)), outcome: .pending, at: testNow.addingTimeInterval(20))

            let read = try #require(try await database.orders.order(order.id, for: shopper))
            #expect(read.order == order)
            #expect(read.refunds.map(\.id) == [succeeded.id, pending.id])
            #expect(read.refunds.map(\.state) == [.succeeded, .pending])
            #expect(read.refunds[0].lines.map(\.quantity) == [1])
            #expect(read.refunds[0].lines.map(\.title) == ["Running socks"])
            #expect(read.refunds[0].amount == eur(8_95))
            #expect(read.refunds[0].settledAt == testNow.addingTimeInterval(5))
            #expect(read.refunds[1].lines.isEmpty)
            #expect(read.refunded == eur(8_95), "a pending refund has given nothing back yet")
            #expect(read.paymentStatus == .partiallyRefunded)
            #expect(try await database.orders.orders(for: shopper) == [read])
            // What a refund would see now: the socks' unit held by the succeeded refund, not the
            // failed one's; the pending goodwill holds no line.
            let refundable = try #require(try await database.refunds.refundable(order.id))
            #expect(refundable.lines == order.lines)
            #expect(refundable.heldUnits == [0, 1])
            // On PostgreSQL an order with its refunds, the list, and what a refund would see are
            // one round trip each.
            if let reporting = database.sql as? any SQLQueueReporting, let before = reporting.roundTrips {
                _ = try await database.orders.order(order.id, for: shopper)
                _ = try await database.orders.orders(for: shopper)
                _ = try await database.refunds.refundable(order.id)
                #expect(reporting.roundTrips == before + 3)
            }
        }
    }

    @Test("the list reads every order's refunds, each with its own, and nobody else's", arguments: Backend.allCases)
    func refundsOfTheList(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await makeShopper(database, lines: [(1, 1)])
            let first = try await placeOrder(database, try await makeAttempt(database, shopper: shopper))
            _ = try await database.baskets.setQuantity(try quantity(2), of: ProductID(3), for: shopper, now: testNow)
            let second = try await placeOrder(database, try await makeAttempt(database, shopper: shopper))
            let untouched = try await placeOrder(
                database, try await makeAttempt(database, shopper: try await makeShopper(database, lines: [(2, 1)])))
            let other = try await makeShopper(database, lines: [(3, 1)])
            let theirs = try await placeOrder(database, try await makeAttempt(database, shopper: other))

            let cancelled = try await Self.refund(database, first.id, .cancellation, outcome: .succeeded)
            let socks = try await Self.refund(database, second.id, Self.lines([(0, 2)]), outcome: .succeeded)
            _ = try await Self.refund(database, theirs.id, .cancellation, outcome: .succeeded)

            let list = try await database.orders.orders(for: shopper)
            #expect(Set(list.map(\.id)) == [first.id, second.id])
            let byID = Dictionary(uniqueKeysWithValues: list.map { ($0.id, $0) })
            #expect(byID[first.id]?.refunds.map(\.id) == [cancelled.id])
            #expect(byID[first.id]?.paymentStatus == .refunded)
            #expect(byID[first.id]?.refunded == first.total)
            #expect(byID[second.id]?.refunds.map(\.id) == [socks.id])
            #expect(byID[second.id]?.refunds.first?.lines.map(\.quantity) == [2])
            #expect(byID[second.id]?.paymentStatus == .partiallyRefunded)
            #expect(try await database.orders.orders(for: other).first?.refunds.count == 1)
            #expect(try await database.orders.order(untouched.id, for: shopper) == nil)
        }
    }
}
