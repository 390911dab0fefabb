import CheckoutKit
import Foundation
import PaymentProvider
import StoreAPI
import StoreDatabase
import StoreServer
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import TestWaiting
import Testing

/// "Keys protect a request; the basket protects the money": each way a basket was once paid twice
/// with different keys, through a real server, counting orders and the provider's charges.
@Suite("One basket, one payment") struct OneBasketOnePaymentTests {
    static let paymentLink = #"{"type":"payment_link"}"#
    static let timeout = #"{"type":"card","token":"tok_timeout"}"#
    static let unavailable = #"{"type":"card","token":"tok_unavailable"}"#

    @Test(
        "64 concurrent checkouts of one basket with 64 different keys: one order, one charge",
        arguments: Backend.allCases)
    func concurrentKeysPayOnce(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.workedCaseShopper()
            let replies = try await withThrowingTaskGroup(of: TestStore.Reply.self) { group in
                for index in 0..<64 {
                    group.addTask {
                        try await store.checkout(
                            token: token, key: "tap-\(index)", method: Self.paymentLink, total: "45.00")
                    }
                }
                return try await group.reduce(into: [TestStore.Reply]()) { $0.append($1) }
            }
            #expect(replies.filter { $0.status == 201 }.count == 1)
            let others = Set(replies.filter { $0.status != 201 }.map { "\($0.status) \($0.errorType ?? "")" })
            #expect(others.isSubset(of: ["409 payment_in_progress", "422 empty_basket"]), "\(others)")
            #expect(try await store.orderCount() == 1)
            #expect(try await store.provider.approvedKeys().count == 1)
            #expect(try await store.basket(token).items.isEmpty)
        }
    }

    @Test(
        "a lost answer, then a new key: the first payment is settled, the second charges nothing",
        arguments: Backend.allCases)
    func timeoutThenANewKey(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.workedCaseShopper()
            let first = try await store.checkout(token: token, key: "A", method: Self.timeout, total: "45.00")
            #expect(first.status == 503)
            #expect(try await store.provider.approvedKeys().count == 1)  // the provider did charge

            let second = try await store.checkout(token: token, key: "B", method: visa, total: "45.00")
            // The new key settles the first payment with the provider and meets the paid basket.
            #expect(second.status == 422, "\(second.text)")
            #expect(second.errorType == "empty_basket")
            #expect(await store.server.reconcilePayments() == 0)
            #expect(try await store.orderCount() == 1)
            #expect(try await store.provider.approvedKeys().count == 1)
            let replay = try await store.checkout(token: token, key: "A", method: Self.timeout, total: "45.00")
            #expect(replay.status == 201)
            #expect(replay.header("Idempotent-Replayed") == "true")
        }
    }

    @Test("while another key's payment is being made, a new key gets payment_in_progress and charges nothing")
    func anotherKeyWhileInFlight() async throws {
        let gate = ProviderGate()
        try await TestStore.with(.sqlite, provider: { gate.wrap($0) }) { store in
            let token = try await store.workedCaseShopper()
            gate.hold()
            async let first = store.checkout(token: token, key: "first", method: visa, total: "45.00")
            try await gate.waitUntilHeld()
            let second = try await store.checkout(token: token, key: "second", method: visa, total: "45.00")
            #expect(second.status == 409)
            #expect(second.errorType == "payment_in_progress")
            #expect(second.header("Retry-After") == "1")
            #expect(
                try second.decode(ErrorBody.self).error.message
                    == CheckoutError.paymentInProgress.message)
            gate.release()
            #expect(try await first.status == 201)
            #expect(try await store.orderCount() == 1)
            #expect(try await store.provider.approvedKeys().count == 1)
        }
    }

    @Test(
        "an anonymous lost answer, then a login, then the same key: the same attempt, one order",
        arguments: Backend.allCases)
    func loginCarriesTheAttempt(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let anonymous = try await store.newSession()
            #expect(try await store.setQuantity(1, of: 2, token: anonymous).status == 200)
            let lost = try await store.checkout(token: anonymous, key: "K", method: Self.timeout, total: "26.85")
            #expect(lost.status == 503)

            let login = try await store.login("free@onlinestore.test", "free-demo-password", token: anonymous)
            #expect(login.status == 200)
            let customer = try login.decode(LoginResponse.self).token
            let retry = try await store.checkout(token: customer, key: "K", method: Self.timeout, total: "26.85")
            #expect(retry.status == 201, "\(retry.text)")
            let orders = try await store.send("GET", "/api/orders", token: customer).decode([OrderBody].self)
            #expect(orders.count == 1)
            #expect(try await store.orderCount() == 1)
            #expect(try await store.provider.approvedKeys().count == 1)
        }
    }

    @Test(
        "a refusal before charging holds nothing: the low-stock product keeps its stock",
        arguments: Backend.allCases)
    func refusalsHoldNothing(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.newSession()
            let start = try await store.stock(11)
            #expect(try await store.setQuantity(6, of: 11, token: token).status == 200)
            let total = try await store.basket(token).total.amountText
            for key in ["down-1", "down-2", "down-1"] {
                let reply = try await store.checkout(token: token, key: key, method: Self.unavailable, total: total)
                #expect(reply.status == 503)
                #expect(try await store.stock(11) == start)
            }
            let other = try await store.newSession()
            #expect(try await store.setQuantity(10, of: 11, token: other).status == 200)
            // A refused key stored nothing: it may pay once there is a way to pay.
            #expect(try await store.checkout(token: token, key: "down-1", method: visa, total: total).status == 201)
            #expect(try await store.stock(11) == start - 6)
            #expect(try await store.provider.approvedKeys().count == 1)
        }
    }

    @Test("reconciliation visits every attempt that may have charged, past any number of others")
    func reconciliationVisitsEveryAttempt() async throws {
        let time = MovableClock()
        // 220 shoppers from one address within a moment: more than one address may create.
        var configuration = StoreConfiguration()
        configuration.newShoppersPerAddressBurst = 1_000
        try await TestStore.with(.sqlite, clock: time.clock, configuration: configuration) { store in
            // 110 shoppers' refused payments, and 110 more whose answers were lost: more than a page.
            for index in 0..<220 {
                let token = try await store.newSession()
                _ = try await store.setQuantity(1, of: 3, token: token)
                let method = index % 2 == 0 ? Self.unavailable : Self.timeout
                #expect(try await store.checkout(token: token, key: "r", method: method, total: "13.90").status == 503)
            }
            time.advance(by: 60)
            #expect(await store.server.reconcilePayments() == 110)
            #expect(try await store.orderCount() == 110)
            #expect(try await store.provider.approvedKeys().count == 110)
            let pending = try await store.database.sql.read {
                try $0.queryFirst("SELECT COUNT(*) AS n FROM payment_attempts WHERE state = 'pending'")?.decode(
                    "n", as: Int.self)
            }
            #expect(pending == 0)
        }
    }

    @Test("an attempt the provider never saw is withdrawn by reconciliation, never charged")
    func reconciliationNeverCharges() async throws {
        let time = MovableClock()
        try await TestStore.with(.sqlite, clock: time.clock) { store in
            let token = try await store.workedCaseShopper()
            let shopper = try #require(
                try await store.database.sql.read {
                    try $0.queryFirst("SELECT shopper_id FROM baskets")?.decode("shopper_id", as: String.self)
                })
            let socks = try await store.stock(3)
            // The store recorded the attempt, then died before calling the provider.
            let basket = try await store.database.baskets.basket(for: ShopperID(rawValue: shopper))
            let quote = try CheckoutQuote(
                lines: basket.basketLines,
                promotion: try await store.database.promotions.promotion(#require(PromotionCode("RUN10"))),
                tier: .free, shipping: .standard, fees: .standard, method: .card(CardToken("tok_visa")))
            let attempt = NewPaymentAttempt(
                id: .random(), shopperID: ShopperID(rawValue: shopper),
                key: try #require(IdempotencyKey(rawValue: "D")),
                fingerprint: "{}", quote: quote, basketVersion: basket.version,
                leaseExpiresAt: time.clock.now().addingTimeInterval(15))
            _ = try await store.database.payments.reserve(attempt, now: time.clock.now())
            #expect(try await store.stock(3) == socks - 2)

            time.advance(by: 16)
            #expect(await store.server.reconcilePayments() == 1)
            #expect(try await store.provider.approvedKeys().isEmpty)
            #expect(try await store.database.payments.attempt(id: attempt.id) == nil)
            #expect(try await store.stock(3) == socks)
            #expect(try await store.basket(token).items.count == 3)
            // The key is closed at the provider: a call still on its way is refused.
            let late = try await store.provider.charge(
                ChargeRequest(key: attempt.id.rawValue, amount: quote.amountDue, method: quote.method))
            #expect(late == .declined(DeclineReason(rawValue: "key_closed")))
            #expect(try await store.provider.approvedKeys().isEmpty)
            // The shopper pays with a new key.
            #expect(try await store.checkout(token: token, key: "E", method: visa, total: "45.00").status == 201)
        }
    }

    @Test("POST /carts: all lines or none, and a bound on lines", arguments: Backend.allCases)
    func cartsAreAllOrNothing(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            _ = try await store.database.sql.write { try $0.execute("UPDATE products SET stock = 2 WHERE id = 11") }
            let shoppers = { () async throws -> Int in
                try await store.database.sql.read {
                    try $0.queryFirst("SELECT COUNT(*) AS n FROM shoppers")?.decode("n", as: Int.self) ?? -1
                }
            }
            let before = try await shoppers()
            let short = try await store.send(
                "POST", "/carts", json: #"[{"productId":1,"quantity":1},{"productId":11,"quantity":3}]"#)
            #expect(short.status == 409)
            #expect(try short.decode(ErrorBody.self).error.field == "products[1].quantity")
            #expect(short.header("X-Session-Token") == nil)
            #expect(try await shoppers() == before)

            let token = try await store.newSession()
            #expect(try await store.setQuantity(1, of: 2, token: token).status == 200)
            let partial = try await store.send(
                "POST", "/carts", token: token, json: #"[{"productId":1,"quantity":1},{"productId":11,"quantity":3}]"#)
            #expect(partial.status == 409)
            #expect(try await store.basket(token).items.map(\.productID) == [2])

            let twice = try await store.send(
                "POST", "/carts", token: token, json: #"[{"productId":1,"quantity":1},{"productId":1,"quantity":2}]"#)
            #expect(twice.status == 422)
            let many = "[" + (1...51).map { #"{"productId":\#($0),"quantity":1}"# }.joined(separator: ",") + "]"
            let tooMany = try await store.send("POST", "/carts", token: token, json: many)
            #expect(tooMany.status == 422)
            #expect(tooMany.errorType == "too_many_lines")
            #expect(try await store.basket(token).items.map(\.productID) == [2])
        }
    }
}

/// Holds provider calls until released, to look at the store while a payment is being made.
final class ProviderGate: @unchecked Sendable {
    private let lock = NSLock()
    private var holding = false
    private var held = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func hold() { lock.withLock { holding = true } }

    func release() {
        let resumed = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            holding = false
            defer { waiting = [] }
            return waiting
        }
        for continuation in resumed { continuation.resume() }
    }

    func waitUntilHeld() async throws {
        guard try await eventually({ lock.withLock { held > 0 } }) else { throw TestError("no provider call arrived") }
    }

    fileprivate func pass() async {
        await withCheckedContinuation { continuation in
            let wait = lock.withLock { () -> Bool in
                guard holding else { return false }
                held += 1
                waiting.append(continuation)
                return true
            }
            if !wait { continuation.resume() }
        }
    }

    func wrap(_ provider: any PaymentProvider) -> any PaymentProvider { GatedProvider(gate: self, provider: provider) }
}

private struct GatedProvider: PaymentProvider {
    let gate: ProviderGate
    let provider: any PaymentProvider

    func charge(_ request: ChargeRequest) async throws(ProviderError) -> ChargeOutcome {
        await gate.pass()
        return try await provider.charge(request)
    }

    func status(ofKey key: String) async throws(ProviderError) -> ChargeStatus {
        try await provider.status(ofKey: key)
    }

    func refund(_ request: RefundRequest) async throws(ProviderError) -> RefundOutcome {
        try await provider.refund(request)
    }

    func refundStatus(ofKey key: String) async throws(ProviderError) -> RefundStatus {
        try await provider.refundStatus(ofKey: key)
    }
}
