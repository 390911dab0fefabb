import CheckoutKit
import Foundation
import StoreAPI
import StoreDatabase
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import Testing

@Suite("Checkout end to end") struct CheckoutTests {
    @Test("a paid checkout: the order as charged, basket emptied, stock taken", arguments: Backend.allCases)
    func paidCheckout(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.workedCaseShopper()
            let socksBefore = try await store.stock(3)
            let reply = try await store.checkout(token: token, key: "k-1", method: visa, total: "45.00")
            #expect(reply.status == 201, "\(reply.text)")
            let order = try reply.decode(OrderBody.self)
            #expect(order.status == "paid")
            #expect(order.subtotal == eur(50_00))
            #expect(order.discount == eur(5_00))
            #expect(order.shipping == eur(0))
            #expect(order.fee == eur(36))
            #expect(order.total == eur(45_36))
            #expect(order.paymentMethod == PaymentMethodBody(type: "card", brand: "visa"))
            #expect(order.promotion == "RUN10")
            #expect(order.lines.map(\.lineTotal) == [eur(10_20), eur(21_90), eur(17_90)])
            #expect(order.id.hasPrefix("ord_") && order.id.count == 30)
            #expect(!reply.text.contains("tok_visa"))
            #expect(order.paymentStatus == "paid" && order.refunds.isEmpty)
            #expect(reply.text.contains(#""payment_status":"paid""#) && reply.text.contains(#""refunds":[]"#))

            #expect(try await store.basket(token).items.isEmpty)
            #expect(try await store.basket(token).promotion == nil)
            #expect(try await store.stock(3) == socksBefore - 2)
            let orders = try await store.send("GET", "/api/orders", token: token).decode([OrderBody].self)
            #expect(orders == [order])
            #expect(
                try await store.send("GET", "/api/orders/\(order.id)", token: token).decode(OrderBody.self) == order)
            let stranger = try await store.newSession()
            #expect(try await store.send("GET", "/api/orders/\(order.id)", token: stranger).status == 404)
            #expect(try await store.send("GET", "/api/orders", token: stranger).decode([OrderBody].self).isEmpty)
            #expect(try await store.send("GET", "/api/orders/ord_nope", token: token).status == 404)
            #expect(try await store.provider.approvedKeys().count == 1)
            #expect(
                try await store.database.analytics.count(
                    named: "payment_finished", properties: ["method": "card", "succeeded": "true"]) == 1)
        }
    }

    @Test(
        "the same key replays the first answer; a different body is a mismatch naming the field",
        arguments: Backend.allCases)
    func idempotentReplay(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.workedCaseShopper()
            let first = try await store.checkout(token: token, key: "replay-key", method: visa, total: "45.00")
            #expect(first.status == 201)
            #expect(first.header("Idempotent-Replayed") == nil)
            let again = try await store.checkout(token: token, key: "replay-key", method: visa, total: "45.00")
            #expect(again.status == 201)
            #expect(again.body == first.body)
            #expect(again.header("Idempotent-Replayed") == "true")

            let otherTotal = try await store.checkout(token: token, key: "replay-key", method: visa, total: "50.00")
            #expect(otherTotal.status == 422)
            #expect(try otherTotal.decode(ErrorBody.self).error.type == "idempotency_mismatch")
            #expect(try otherTotal.decode(ErrorBody.self).error.field == "expected_total")
            let otherMethod = try await store.checkout(
                token: token, key: "replay-key", method: #"{"type":"qr_code"}"#, total: "45.00")
            #expect(try otherMethod.decode(ErrorBody.self).error.field == "payment_method.type")
            let otherToken = try await store.checkout(
                token: token, key: "replay-key", method: #"{"type":"card","token":"tok_mastercard"}"#, total: "45.00")
            #expect(try otherToken.decode(ErrorBody.self).error.field == "payment_method.token")

            // Keys are scoped to the shopper: another shopper's same key is their own attempt.
            let other = try await store.newSession()
            _ = try await store.setQuantity(1, of: 2, token: other)
            #expect(
                try await store.checkout(token: other, key: "replay-key", method: visa, total: "26.85").status == 201)
            #expect(try await store.orderCount() == 2)
            #expect(try await store.provider.approvedKeys().count == 2)
        }
    }

    @Test("the key is required and bounded; a refused request stores nothing", arguments: [Backend.sqlite])
    func keyRulesAndValidation(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.workedCaseShopper()
            let missing = try await store.checkout(token: token, key: nil, method: visa, total: "45.00")
            #expect(missing.status == 400)
            #expect(missing.errorType == "idempotency_key_required")
            let long = try await store.checkout(
                token: token, key: String(repeating: "k", count: 256), method: visa, total: "45.00")
            #expect(long.status == 400)
            #expect(
                try await store.checkout(
                    token: token, key: String(repeating: "k", count: 255), method: #"{"type":"cash"}"#, total: "45.00"
                ).status == 422)

            let unknown = try await store.checkout(
                token: token, key: "v-1", method: #"{"type":"bitcoin"}"#, total: "45.00")
            #expect(unknown.status == 422)
            #expect(unknown.errorType == "unknown_payment_method")
            let noToken = try await store.checkout(
                token: token, key: "v-1", method: #"{"type":"card"}"#, total: "45.00")
            #expect(noToken.errorType == "invalid_card_token")
            let zero = try await store.checkout(token: token, key: "v-1", method: visa, total: "0.00")
            #expect(zero.status == 422)
            #expect(try zero.decode(ErrorBody.self).error.message == "Enter an amount above zero.")
            let changed = try await store.checkout(token: token, key: "v-1", method: visa, total: "44.99")
            #expect(changed.status == 409)
            #expect(changed.errorType == "price_changed")
            #expect(try await store.orderCount() == 0)
            #expect(try await store.provider.approvedKeys().isEmpty)
            // Nothing was stored for "v-1": the same key now pays.
            #expect(try await store.checkout(token: token, key: "v-1", method: visa, total: "45.00").status == 201)

            let empty = try await store.newSession()
            #expect(
                try await store.checkout(token: empty, key: "e", method: visa, total: "1.00").errorType
                    == "empty_basket")
            #expect(try await store.checkout(token: "", key: "e", method: visa, total: "1.00").status == 401)
        }
    }

    @Test("declines: 402 with the reason, nothing kept, replayed for the same key", arguments: Backend.allCases)
    func declines(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.workedCaseShopper()
            let stock = try await store.stock(3)
            for (card, reason) in [
                ("tok_chargeDeclined", "card_declined"), ("tok_insufficientFunds", "insufficient_funds"),
            ] {
                let key = "decline-\(card)"
                let reply = try await store.checkout(
                    token: token, key: key, method: #"{"type":"card","token":"\#(card)"}"#, total: "45.00")
                #expect(reply.status == 402)
                let error = try reply.decode(ErrorBody.self).error
                #expect(error.type == "declined")
                #expect(error.reason == reason)
                #expect(error.message.hasPrefix("Your bank declined the payment."))
                let replay = try await store.checkout(
                    token: token, key: key, method: #"{"type":"card","token":"\#(card)"}"#, total: "45.00")
                #expect(replay.status == 402)
                #expect(replay.header("Idempotent-Replayed") == "true")
            }
            #expect(try await store.stock(3) == stock)
            #expect(try await store.basket(token).items.count == 3)
            #expect(try await store.basket(token).promotion?.code == "RUN10")
            let promotion = try await store.database.promotions.promotion(#require(PromotionCode("RUN10")))
            #expect(promotion?.timesUsed == 0)
            // A new key with another card pays.
            #expect(
                try await store.checkout(token: token, key: "after-decline", method: visa, total: "45.00").status == 201
            )
        }
    }

    @Test("tok_timeout: 503 first, then exactly one order after a retry with the same key", arguments: Backend.allCases)
    func lostAnswer(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.workedCaseShopper()
            let method = #"{"type":"card","token":"tok_timeout"}"#
            let first = try await store.checkout(token: token, key: "t-1", method: method, total: "45.00")
            #expect(first.status == 503)
            #expect(first.errorType == "unavailable")
            #expect(
                try first.decode(ErrorBody.self).error.message
                    == "We couldn't confirm the payment. Retrying is safe — you won't be charged twice.")
            #expect(try await store.provider.approvedKeys().count == 1)  // the provider did charge
            #expect(try await store.orderCount() == 0)

            // Retries with the same key until the answer is definite (a client also waits out a 409
            // "in progress" while another request resolves the attempt).
            var retry = try await store.checkout(token: token, key: "t-1", method: method, total: "45.00")
            for _ in 0..<50 where retry.status == 409 && retry.errorType == "idempotency_in_progress" {
                try await Task.sleep(for: .milliseconds(100))
                retry = try await store.checkout(token: token, key: "t-1", method: method, total: "45.00")
            }
            #expect(retry.status == 201, "\(retry.text)")
            let again = try await store.checkout(token: token, key: "t-1", method: method, total: "45.00")
            #expect(again.status == 201)
            #expect(again.body == retry.body)
            #expect(try await store.orderCount() == 1)
            #expect(try await store.provider.approvedKeys().count == 1)
        }
    }

    @Test("tok_unavailable: 503 and nothing charged", arguments: [Backend.sqlite])
    func providerDown(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.workedCaseShopper()
            let method = #"{"type":"card","token":"tok_unavailable"}"#
            for _ in 0..<2 {
                let reply = try await store.checkout(token: token, key: "u-1", method: method, total: "45.00")
                #expect(reply.status == 503)
            }
            #expect(try await store.provider.approvedKeys().isEmpty)
            #expect(try await store.orderCount() == 0)
        }
    }

    @Test("out of stock and used-up promotions: 409, nothing charged", arguments: Backend.allCases)
    func cannotBeFilled(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.newSession()
            _ = try await store.setQuantity(2, of: 11, token: token)
            _ = try await store.database.sql.write { try $0.execute("UPDATE products SET stock = 1 WHERE id = 11") }
            let total = try await store.basket(token).total.amountText
            let short = try await store.checkout(token: token, key: "s-1", method: visa, total: total)
            #expect(short.status == 409)
            #expect(short.errorType == "out_of_stock")

            let promo = try await store.newSession()
            _ = try await store.setQuantity(1, of: 2, token: promo)
            _ = try await store.send("PUT", "/api/basket/promotion", token: promo, json: #"{"code":"RUN10"}"#)
            _ = try await store.database.sql.write {
                try $0.execute("UPDATE promotions SET usage_limit = 0 WHERE code = 'RUN10'")
            }
            // The basket no longer applies the code; confirming the old total is a price change.
            let stale = try await store.checkout(token: promo, key: "p-1", method: visa, total: "24.66")
            #expect(stale.status == 409)
            #expect(stale.errorType == "price_changed")
            #expect(try await store.provider.approvedKeys().isEmpty)
        }
    }

    @Test("64 concurrent requests with one key: one order, one charge, no 5xx", arguments: Backend.allCases)
    func duplicateStorm(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.workedCaseShopper()
            let statuses = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for _ in 0..<64 {
                    group.addTask {
                        let reply = try await store.checkout(token: token, key: "storm", method: visa, total: "45.00")
                        return (reply.status, reply.header("Idempotent-Replayed") == "true")
                    }
                }
                return try await group.reduce(into: [(Int, Bool)]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0.0 < 500 })
            #expect(statuses.filter { $0.0 == 201 && !$0.1 }.count == 1)
            #expect(statuses.allSatisfy { $0.0 == 201 || $0.0 == 409 })
            #expect(try await store.orderCount() == 1)
            #expect(try await store.provider.approvedKeys().count == 1)
        }
    }

    @Test("40 shoppers buying the low-stock product: sold ≤ stock, stock = start − sold", arguments: Backend.allCases)
    func lowStockRush(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let start = try await store.stock(11)
            #expect(start < 30)
            var tokens: [String] = []
            for _ in 0..<40 {
                let token = try await store.newSession()
                #expect(try await store.setQuantity(1, of: 11, token: token).status == 200)
                tokens.append(token)
            }
            let total = try await store.basket(tokens[0]).total.amountText
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for (index, token) in tokens.enumerated() {
                    group.addTask {
                        try await store.checkout(
                            token: token, key: "rush-\(index)", method: #"{"type":"qr_code"}"#, total: total
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let sold = statuses.filter { $0 == 201 }.count
            #expect(sold == start)
            #expect(statuses.allSatisfy { $0 == 201 || $0 == 409 })
            #expect(try await store.stock(11) == start - sold)
            #expect(try await store.orderCount() == sold)
        }
    }
}
