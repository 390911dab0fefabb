import CheckoutKit
import Foundation
import StoreAPI
import StoreCrypto
import StoreDatabase
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import TestWaiting
import Testing

/// docs/BEHAVIOUR.md §3–§4 and §8–§9 through the real server on a loopback port, on SQLite and PostgreSQL.
@Suite("Store API end to end") struct APITests {
    @Test("§3 and §4 worked cases through the API", arguments: Backend.allCases)
    func workedCases(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.newSession()
            #expect(try await store.setQuantity(1, of: 1, token: token).status == 200)
            #expect(try await store.setQuantity(1, of: 2, token: token).status == 200)
            #expect(try await store.setQuantity(2, of: 3, token: token).status == 200)
            var basket = try await store.basket(token)
            #expect(basket.subtotal == eur(50_00))
            #expect(basket.shipping == eur(0))
            #expect(basket.total == eur(50_00))
            #expect(basket.amountToFreeShipping == nil)
            #expect(basket.tier == .free)

            let applied = try await store.send(
                "PUT", "/api/basket/promotion", token: token, json: #"{"code":" run10 "}"#)
            #expect(applied.status == 200)
            basket = try applied.decode(BasketBody.self)
            #expect(basket.discount == eur(5_00))
            #expect(basket.shipping == eur(0))
            #expect(basket.total == eur(45_00))
            #expect(basket.promotion?.code == "RUN10")
            #expect(basket.paymentOptions.map(\.type) == ["card", "payment_link", "qr_code"])
            #expect(basket.paymentOptions.map(\.amountDue) == [eur(45_36), eur(45_25), eur(45_00)])

            let single = try await store.newSession()
            _ = try await store.setQuantity(1, of: 2, token: single)
            basket = try await store.basket(single)
            #expect(basket.subtotal == eur(21_90))
            #expect(basket.shipping == eur(4_95))
            #expect(basket.total == eur(26_85))
            #expect(basket.amountToFreeShipping == eur(28_10))

            basket = try await store.send("PUT", "/api/basket/promotion", token: single, json: #"{"code":"GIFT25"}"#)
                .decode(BasketBody.self)
            #expect(basket.discount == eur(21_90))
            #expect(basket.shipping == eur(4_95))
            #expect(basket.total == eur(4_95))

            basket = try await store.send("PUT", "/api/basket/promotion", token: single, json: #"{"code":"BIG20"}"#)
                .decode(BasketBody.self)
            #expect(basket.discount == eur(0))
            #expect(basket.promoNotice == "Add €78.10 more to use BIG20.")
            basket = try await store.send("DELETE", "/api/basket/promotion", token: single).decode(BasketBody.self)
            #expect(basket.promotion == nil)
            #expect(basket.total == eur(26_85))
        }
    }

    @Test("quantities outside 1…10 are refused and change nothing", arguments: Backend.allCases)
    func quantityBounds(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.newSession()
            _ = try await store.setQuantity(4, of: 3, token: token)
            for quantity in ["0", "11", "-1", "2.5", "100000000000000000000"] {
                let reply = try await store.send(
                    "PUT", "/api/basket/items/3", token: token, json: #"{"quantity":\#(quantity)}"#)
                #expect(reply.status == 422, "quantity \(quantity)")
            }
            let words = try await store.send("PUT", "/api/basket/items/3", token: token, json: #"{"quantity":"three"}"#)
            #expect(words.status == 422)
            #expect(words.errorType == "invalid_body")
            let missing = try await store.send("PUT", "/api/basket/items/3", token: token, json: #"{}"#)
            #expect(missing.status == 422)
            #expect(try await store.basket(token).items.map(\.quantity) == [4])

            #expect(try await store.setQuantity(10, of: 3, token: token).status == 200)
            #expect(try await store.setQuantity(1, of: 9_999, token: token).status == 404)
            #expect(try await store.setQuantity(1, of: 0, token: token).status == 404)
            #expect(
                try await store.send("PUT", "/api/basket/items/abc", token: token, json: #"{"quantity":1}"#).status
                    == 404)
            let removed = try await store.send("DELETE", "/api/basket/items/3", token: token)
            #expect(try removed.decode(BasketBody.self).items.isEmpty)
        }
    }

    @Test("a quantity above the stock is refused with the stock left", arguments: Backend.allCases)
    func stockIsChecked(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            _ = try await store.database.sql.write { try $0.execute("UPDATE products SET stock = 3 WHERE id = 11") }
            let token = try await store.newSession()
            let reply = try await store.setQuantity(4, of: 11, token: token)
            #expect(reply.status == 409)
            #expect(reply.errorType == "out_of_stock")
            #expect(reply.text.contains("Only 3 left"))
        }
    }

    @Test(
        "unknown, malformed and expired codes: 'That code isn't valid.', basket unchanged", arguments: Backend.allCases)
    func promotionErrors(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            _ = try await store.database.sql.write { connection in
                try connection.execute(
                    """
                    INSERT INTO promotions (code, kind, percent_off, currency, minimum_subtotal_minor, ends_at, times_used)
                    VALUES ('OLD5', 'percent_off', 5, 'EUR', 0, 1000, 0)
                    """)
                try connection.execute(
                    """
                    INSERT INTO promotions (code, kind, percent_off, currency, minimum_subtotal_minor, usage_limit, times_used)
                    VALUES ('GONE', 'percent_off', 5, 'EUR', 0, 2, 2)
                    """)
            }
            let token = try await store.newSession()
            _ = try await store.setQuantity(1, of: 2, token: token)
            _ = try await store.send("PUT", "/api/basket/promotion", token: token, json: #"{"code":"RUN10"}"#)
            for code in ["NOPE", "OLD5", "GONE", "", "RUN 10", "<script>alert(1)</script>"] {
                let reply = try await store.send(
                    "PUT", "/api/basket/promotion", token: token, json: #"{"code":"\#(code)"}"#)
                #expect(reply.status == 422, "code \(code)")
                #expect(try reply.decode(ErrorBody.self).error.message == "That code isn't valid.")
                #expect(!reply.text.contains("<script>"))
            }
            #expect(try await store.basket(token).promotion?.code == "RUN10")
        }
    }

    @Test("Pro members ship free after logging in, and the anonymous basket is kept", arguments: Backend.allCases)
    func proShipsFree(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let anonymous = try await store.newSession()
            _ = try await store.setQuantity(1, of: 2, token: anonymous)
            #expect(try await store.basket(anonymous).shipping == eur(4_95))

            let login = try await store.login("pro@onlinestore.test", "pro-demo-password", token: anonymous)
            #expect(login.status == 200)
            let body = try login.decode(LoginResponse.self)
            #expect(body.customer.firstName == "Robin")
            #expect(!login.text.contains("password"))
            let basket = try await store.basket(body.token)
            #expect(basket.items.map(\.productID) == [2])
            #expect(basket.tier == .pro)
            #expect(basket.shipping == eur(0))
            #expect(basket.total == eur(21_90))
            #expect(basket.amountToFreeShipping == nil)

            let profile = try await store.send("GET", "/api/profile", token: body.token).decode(ProfileBody.self)
            #expect(profile.email == "pro@onlinestore.test")
            #expect(profile.tier == .pro)
            #expect(profile.subscription.willAutoRenew)

            let free = try await store.login("FREE@onlinestore.test", "free-demo-password").decode(LoginResponse.self)
            let freeProfile = try await store.send("GET", "/api/profile", token: free.token).decode(ProfileBody.self)
            #expect(freeProfile.tier == .free)
            #expect(freeProfile.subscription.expiresAt == nil)
        }
    }

    @Test("wrong credentials: the same 401 whether the email exists or not", arguments: Backend.allCases)
    func wrongCredentials(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let wrongPassword = try await store.login("pro@onlinestore.test", "guess")
            let unknownEmail = try await store.login("nobody@onlinestore.test", "pro-demo-password")
            #expect(wrongPassword.status == 401)
            #expect(unknownEmail.status == 401)
            #expect(wrongPassword.body == unknownEmail.body)
            // A password that happens to look like a card number is not refused as one, on any
            // spelling of the path.
            let cardLike = try await store.send(
                "POST", "/api/login/", json: #"{"email":"nobody@onlinestore.test","password":"4242424242424242"}"#)
            #expect(cardLike.status == 401)
            #expect(try await store.send("POST", "/api/login", json: #"{"email":"x"}"#).status == 422)
        }
    }

    @Test("a password hashed with other costs is hashed again at login", arguments: [Backend.sqlite])
    func rehashAtLogin(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let older = PasswordHasher(
                operationsLimit: PasswordHasher.minimal.operationsLimit + 1,
                memoryLimit: PasswordHasher.minimal.memoryLimit)
            _ = try await store.database.customers.create(
                NewCustomer(
                    email: "old@onlinestore.test", passwordHash: try older.hash("an old password"), firstName: "Old",
                    lastName: "Hash", subscription: .none), now: Date())
            #expect(try await store.login("old@onlinestore.test", "an old password").status == 200)
            // The hash is renewed after the answer, in the background.
            let stored =
                try await eventuallyValue {
                    let hash = try await store.database.customers.customer(email: "old@onlinestore.test")?.passwordHash
                    return hash.flatMap { PasswordHasher.minimal.needsRehash($0) ? nil : $0 }
                } ?? ""
            #expect(!PasswordHasher.minimal.needsRehash(stored))
            #expect(PasswordHasher.minimal.verify("an old password", against: stored))
            #expect(try await store.login("old@onlinestore.test", "an old password").status == 200)
        }
    }

    @Test("repeated failed logins are throttled", arguments: [Backend.sqlite])
    func loginThrottle(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            for _ in 0..<5 { #expect(try await store.login("free@onlinestore.test", "wrong").status == 401) }
            let throttled = try await store.login("free@onlinestore.test", "free-demo-password")
            #expect(throttled.status == 429)
            #expect(throttled.header("Retry-After") != nil)
            #expect(try await store.login("pro@onlinestore.test", "pro-demo-password").status == 200)
        }
    }

    @Test("sessions: 401 without or with a bad token; no shopper reaches another's basket", arguments: Backend.allCases)
    func sessionsAndIsolation(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let anonymous = try await store.send("GET", "/api/basket")
            #expect(anonymous.status == 401)
            #expect(anonymous.header("WWW-Authenticate") == "Bearer")
            #expect(try await store.send("GET", "/api/basket", token: "not-a-token").status == 401)
            #expect(try await store.send("GET", "/api/basket", token: String(repeating: "A", count: 43)).status == 401)
            #expect(try await store.send("GET", "/api/basket", headers: ["Cookie": "session=x"]).status == 401)
            #expect(try await store.send("GET", "/api/profile").status == 401)

            let alice = try await store.newSession()
            let bob = try await store.newSession()
            #expect(alice != bob)
            _ = try await store.setQuantity(3, of: 2, token: alice)
            #expect(try await store.basket(bob).items.isEmpty)
            _ = try await store.send("DELETE", "/api/basket/items/2", token: bob)
            #expect(try await store.basket(alice).items.count == 1)
            // An anonymous shopper has no profile.
            #expect(try await store.send("GET", "/api/profile", token: alice).status == 401)
        }
    }

    @Test(
        "errors are JSON: 400 malformed, 404 unknown route, 405 wrong method, 413 too large",
        arguments: Backend.allCases)
    func protocolErrors(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.newSession()
            let malformed = try await store.send("PUT", "/api/basket/items/1", token: token, json: "{\"quantity\": ")
            #expect(malformed.status == 400)
            #expect(malformed.errorType == "malformed_json")

            let unknown = try await store.send("GET", "/api/nothing-here")
            #expect(unknown.status == 404)
            #expect(unknown.errorType != nil)

            let wrongMethod = try await store.send("DELETE", "/api/products")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("Allow")?.contains("GET") == true)

            // An 8 MB body: the server answers 413 as soon as it sees the declared length, without
            // reading the body (a raw socket, so the answer is read even while the upload is cut off).
            let huge = try await store.rawStatus(
                "PUT /api/basket/promotion HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(8 << 20)\r\n\r\n",
                body: [UInt8](repeating: UInt8(ascii: "a"), count: 8 << 20))
            #expect(huge == 413)
            #expect(try await store.send("GET", "/api/products").status == 200)

            #expect(try await store.send("GET", "/api/products/999").status == 404)
            #expect(try await store.send("GET", "/api/categories/weapons/products").status == 404)
        }
    }

    @Test("a bearer token with spaces and tabs around it is read; one with other characters is not")
    func bearerTokenWhitespace() async throws {
        try await TestStore.with(.sqlite) { store in
            let token = try await store.newSession()
            func status(_ authorization: String) async throws -> Int {
                let head = "GET /api/basket HTTP/1.1\r\nHost: x\r\nAuthorization: \(authorization)\r\n"
                return try await store.rawStatus(head + "Connection: close\r\n\r\n", body: [])
            }
            #expect(try await status("Bearer \(token)") == 200)
            #expect(try await status("Bearer  \t \(token) \t") == 200)
            #expect(try await status("Bearer \u{A0}\(token)") == 401)
            #expect(try await status("Bearer \(token)x") == 401)
        }
    }

    @Test("a card number in any request field is refused and never echoed", arguments: [Backend.sqlite])
    func cardNumbersAreRefused(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.newSession()
            for json in [
                #"{"code":"4242424242424242"}"#, #"{"code":"4242 4242 4242 4242"}"#,
                #"{"code":"x","note":"5555-5555-5555-4444"}"#,
            ] {
                let reply = try await store.send("PUT", "/api/basket/promotion", token: token, json: json)
                #expect(reply.status == 422)
                #expect(reply.errorType == "card_number_rejected")
                #expect(!reply.text.contains("4242") && !reply.text.contains("4444"))
            }
            #expect(!store.log.all.joined().contains("4242"))
        }
    }

    @Test("every response carries the security headers; the log holds no secret", arguments: [Backend.sqlite])
    func securityHeadersAndLog(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.newSession()
            let replies = [
                try await store.send("GET", "/api/products"),
                try await store.send("GET", "/api/basket", token: token),
                try await store.send("GET", "/nope"),
                try await store.send("POST", "/api/products"),
                try await store.login("pro@onlinestore.test", "pro-demo-password"),
            ]
            for reply in replies {
                #expect(reply.header("X-Content-Type-Options") == "nosniff")
                #expect(reply.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
                #expect(reply.header("Referrer-Policy") != nil)
            }
            #expect(replies[1].header("Cache-Control") == "no-store")
            let proToken = try replies[4].decode(LoginResponse.self).token
            let log = store.log.all
            #expect(log.count >= 6)
            #expect(log.allSatisfy { $0.hasPrefix("{\"time\":") && $0.hasSuffix("}") })
            let requests = log.filter { !$0.contains("\"event\":") }
            #expect(requests.count >= 5)
            #expect(requests.allSatisfy { $0.contains("\"status\":") && $0.contains("\"duration_ms\":") })
            let text = log.joined(separator: "\n")
            #expect(!text.contains(token) && !text.contains(proToken) && !text.contains("pro-demo-password"))
            #expect(text.contains("\"route\":\"/api/basket\""))
        }
    }
}
