import CheckoutKit
import Foundation
import StoreAPI
import StoreClient
import StoreServer
import StoreServices
import Testing

/// Each error a real store answers, as the live client maps it (docs/BEHAVIOUR.md §9.2, §10).
@Suite("The live client, every error") struct LiveErrorTests {
    @Test("401: an unknown session is forgotten, and the next request starts a new one")
    func expiredSession() async throws {
        try await LiveStore.with { store in
            let client = LiveStoreClient(baseURL: store.base, token: "no-such-session")
            let error = await failure { () async throws(StoreClientError) in try await client.basket() }
            guard case .unauthorized = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(await client.token == nil)
            let fresh = try await client.basket()
            #expect(fresh.items.isEmpty)
            #expect(await client.token != nil)
        }
    }

    @Test("401: wrong credentials, the same answer whether the email exists or not")
    func wrongPassword() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            let wrong = LoginRequest(email: Demo.free.email, password: "not-the-password")
            let unknown = LoginRequest(email: "nobody@onlinestore.test", password: "whatever-it-is")
            for request in [wrong, unknown] {
                let error = await failure { () async throws(StoreClientError) in try await client.login(request) }
                #expect(error == .unauthorized(message: "The email or password is incorrect."))
            }
        }
    }

    @Test("401: an anonymous shopper's profile; the anonymous session is kept")
    func anonymousProfile() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            let token = try await client.startSession().token
            let error = await failure { () async throws(StoreClientError) in try await client.profile() }
            #expect(error == .unauthorized(message: "Log in to see your profile."))
            #expect(await client.token == token)
        }
    }

    @Test("402: declines with their reasons; final for the key")
    func declined() async throws {
        try await LiveStore.with { store in
            let cases: [(String, DeclineReason, String)] = [
                ("tok_chargeDeclined", .cardDeclined, "Your bank declined the payment. The card was declined."),
                (
                    "tok_insufficientFunds", .insufficientFunds,
                    "Your bank declined the payment. The card has insufficient funds."
                ),
            ]
            for (token, reason, message) in cases {
                let client = store.client()
                try await client.fillWorkedCaseBasket()
                let request = try CheckoutRequest.card(token, total: eur(45_00))
                let key = try makeKey("decline-\(token)")
                let error = await failure { () async throws(StoreClientError) in
                    try await client.checkout(request, idempotencyKey: key)
                }
                #expect(error == .declined(reason: reason, message: message))
                #expect(error?.isOutcomeUnknown == false)
                // The basket is kept.
                #expect(try await client.basket().items.count == 3)
            }
            #expect(try await store.orderCount() == 0)
            #expect(try await store.charges() == 0)
        }
    }

    @Test("404: no such product, category, or order — nor another shopper's order")
    func notFound() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            let product = await failure { () async throws(StoreClientError) in try await client.product(id: 999) }
            #expect(product == .notFound(message: "There is no such product."))
            let category = await failure { () async throws(StoreClientError) in
                try await client.products(inCategory: "no such/category")
            }
            #expect(category == .notFound(message: "There is no such category."))
            let order = await failure { () async throws(StoreClientError) in
                try await client.order(id: "ord_AAAAAAAAAAAAAAAAAAAAAAAAAA")
            }
            #expect(order == .notFound(message: "There is no such order."))

            try await client.fillWorkedCaseBasket()
            let paid = try await client.checkout(
                try .card("tok_visa", total: eur(45_00)), idempotencyKey: try makeKey("mine"))
            let stranger = store.client()
            let theirs = await failure { () async throws(StoreClientError) in try await stranger.order(id: paid.id) }
            #expect(theirs == .notFound(message: "There is no such order."))
        }
    }

    @Test("409 price_changed: the total confirmed is not the basket's; nothing charged")
    func priceChanged() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            try await client.fillWorkedCaseBasket()
            let request = try CheckoutRequest.card("tok_visa", total: eur(50_00))
            let key = try makeKey("stale")
            let error = await failure { () async throws(StoreClientError) in
                try await client.checkout(request, idempotencyKey: key)
            }
            guard case .priceChanged(let message) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(message.contains("€45.00"))
            #expect(try await store.charges() == 0)
        }
    }

    @Test("409 out_of_stock: setting more than the stock, and paying for what is gone")
    func outOfStock() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            _ = try await client.setQuantity(SetQuantityRequest(quantity: 2), productID: 11)
            let total = try await client.basket().total
            _ = try await store.database.sql.write { try $0.execute("UPDATE products SET stock = 1 WHERE id = 11") }

            let more = await failure { () async throws(StoreClientError) in
                try await client.setQuantity(SetQuantityRequest(quantity: 3), productID: 11)
            }
            #expect(more == .outOfStock(message: "Only 1 left in stock."))

            let request = try CheckoutRequest.card("tok_visa", total: total)
            let key = try makeKey("short")
            let paying = await failure { () async throws(StoreClientError) in
                try await client.checkout(request, idempotencyKey: key)
            }
            guard case .outOfStock = paying else {
                Issue.record("got \(String(describing: paying))")
                return
            }
            #expect(try await store.charges() == 0)
        }
    }

    @Test("409 idempotency_in_progress: the same key while its payment is being made")
    func idempotencyInProgress() async throws {
        let gate = ProviderGate()
        try await LiveStore.with(provider: { gate.wrap($0) }) { store in
            let client = store.client()
            try await client.fillWorkedCaseBasket()
            let request = try CheckoutRequest.card("tok_visa", total: eur(45_00))
            let key = try makeKey("busy")
            gate.hold()
            let first = Task { () async throws(StoreClientError) -> OrderBody in
                try await client.checkout(request, idempotencyKey: key)
            }
            try await gate.waitUntilHeld()
            let again = await failure { () async throws(StoreClientError) in
                try await client.checkout(request, idempotencyKey: key)
            }
            #expect(again == .idempotencyInProgress)
            #expect(again?.isOutcomeUnknown == true)
            gate.release()
            let order = try await first.value
            #expect(try await client.checkout(request, idempotencyKey: key) == order)
            #expect(try await store.charges() == 1)
        }
    }

    @Test("409 payment_in_progress: another key while the basket's payment is being made")
    func paymentInProgress() async throws {
        let gate = ProviderGate()
        try await LiveStore.with(provider: { gate.wrap($0) }) { store in
            let client = store.client()
            try await client.fillWorkedCaseBasket()
            let request = try CheckoutRequest.card("tok_visa", total: eur(45_00))
            let firstKey = try makeKey("first")
            let secondKey = try makeKey("second")
            gate.hold()
            let first = Task { () async throws(StoreClientError) -> OrderBody in
                try await client.checkout(request, idempotencyKey: firstKey)
            }
            try await gate.waitUntilHeld()
            let second = await failure { () async throws(StoreClientError) in
                try await client.checkout(request, idempotencyKey: secondKey)
            }
            #expect(second == .paymentInProgress)
            gate.release()
            _ = try await first.value
            #expect(try await store.orderCount() == 1)
            #expect(try await store.charges() == 1)
        }
    }

    @Test("422 idempotency_mismatch: a used key with another request names the field")
    func idempotencyMismatch() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            try await client.fillWorkedCaseBasket()
            let key = try makeKey("reused")
            let declined = try CheckoutRequest.card("tok_chargeDeclined", total: eur(45_00))
            _ = await failure { () async throws(StoreClientError) in
                try await client.checkout(declined, idempotencyKey: key)
            }
            let other = try CheckoutRequest.card("tok_visa", total: eur(45_00))
            let error = await failure { () async throws(StoreClientError) in
                try await client.checkout(other, idempotencyKey: key)
            }
            #expect(error == .idempotencyMismatch(field: "payment_method.token"))
        }
    }

    @Test("422: a quantity out of range, an unknown code, an empty basket, an unknown method")
    func invalid() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            let quantity = await failure { () async throws(StoreClientError) in
                try await client.setQuantity(SetQuantityRequest(quantity: 11), productID: 1)
            }
            #expect(
                quantity
                    == .invalid(
                        type: "invalid_quantity", message: "The quantity must be a whole number from 1 to 10.",
                        field: "quantity"))
            let code = await failure { () async throws(StoreClientError) in
                try await client.applyPromotion(ApplyPromotionRequest(code: "NOPE"))
            }
            #expect(code == .invalid(type: "invalid_promotion", message: "That code isn't valid.", field: "code"))

            let emptyKey = try makeKey("e")
            let empty = await failure { () async throws(StoreClientError) in
                try await client.checkout(
                    CheckoutRequest(method: .qrCode, expectedTotal: eur(10_00)), idempotencyKey: emptyKey)
            }
            guard case .invalid("empty_basket", _, _) = empty else {
                Issue.record("got \(String(describing: empty))")
                return
            }
            _ = try await client.setQuantity(SetQuantityRequest(quantity: 1), productID: 1)
            let cash = CheckoutRequest(paymentMethod: PaymentMethodBody(type: "cash"), expectedTotal: eur(15_15))
            let cashKey = try makeKey("c")
            let method = await failure { () async throws(StoreClientError) in
                try await client.checkout(cash, idempotencyKey: cashKey)
            }
            guard case .invalid("unknown_payment_method", _, _) = method else {
                Issue.record("got \(String(describing: method))")
                return
            }
        }
    }

    @Test("400: a checkout sent without its key")
    func missingKey() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            _ = try await client.setQuantity(SetQuantityRequest(quantity: 1), productID: 1)
            let request = CheckoutRequest(method: .qrCode, expectedTotal: eur(15_15))
            let error = await failure { () async throws(StoreClientError) in
                try await client.send(Endpoints.checkout, body: request)
            }
            guard case .invalid("idempotency_key_required", _, _) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
        }
    }

    @Test("413: a body over 1 MiB")
    func tooLarge() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            let huge = ApplyPromotionRequest(code: String(repeating: "A", count: 2 << 20))
            let error = await failure { () async throws(StoreClientError) in try await client.applyPromotion(huge) }
            guard case .invalid("payload_too_large", _, _) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
        }
    }

    @Test("429: too many failed logins, with when to try again")
    func throttled() async throws {
        let configuration = StoreConfiguration(loginFailuresPerAccountAndAddress: 2)
        try await LiveStore.with(configuration: configuration) { store in
            let client = store.client()
            let wrong = LoginRequest(email: Demo.free.email, password: "not-the-password")
            for _ in 0..<2 {
                _ = await failure { () async throws(StoreClientError) in try await client.login(wrong) }
            }
            let error = await failure { () async throws(StoreClientError) in try await client.login(Demo.free) }
            guard case .tooManyRequests(let message, let retryAfter) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(message == "Too many failed logins. Try again in a few minutes.")
            let wait = try #require(retryAfter)
            #expect(wait > .seconds(0) && wait <= .seconds(15 * 60))
        }
    }

    @Test("503: the provider down before charging is unavailable; nothing charged")
    func unavailable() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            try await client.fillWorkedCaseBasket()
            let request = try CheckoutRequest.card("tok_unavailable", total: eur(45_00))
            let key = try makeKey("down")
            let error = await failure { () async throws(StoreClientError) in
                try await client.checkout(request, idempotencyKey: key)
            }
            #expect(error == .unavailable)
            #expect(error?.paymentMessage == CheckoutError.unavailable.message)
            #expect(try await store.charges() == 0)
        }
    }

    @Test("503 after a lost answer (tok_timeout), then the same key: exactly one order, one charge")
    func lostAnswer() async throws {
        try await LiveStore.with { store in
            let client = store.client()
            try await client.fillWorkedCaseBasket()
            let request = try CheckoutRequest.card("tok_timeout", total: eur(45_00))
            let key = try makeKey("lost")
            let first = await failure { () async throws(StoreClientError) in
                try await client.checkout(request, idempotencyKey: key)
            }
            #expect(first == .unavailable)
            #expect(try await store.charges() == 1)
            #expect(try await store.orderCount() == 0)

            var order: OrderBody?
            for _ in 0..<50 where order == nil {
                do throws(StoreClientError) {
                    order = try await client.checkout(request, idempotencyKey: key)
                } catch .idempotencyInProgress {
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            let paid = try #require(order)
            #expect(try await client.orders() == [paid])
            #expect(try await store.orderCount() == 1)
            #expect(try await store.charges() == 1)
        }
    }
}
