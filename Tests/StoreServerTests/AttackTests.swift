import CheckoutKit
import Foundation
import StoreAPI
import StoreDatabase
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import Testing

/// The holes an attack on the store found at its edges, each reproduced as it was found, through a
/// real server over a real database: card numbers through web forms and encodings, a JSON guard
/// that failed open, request smuggling, and a first visit's login that did not log in.
@Suite("Holes found by an attack") struct AttackTests {
    /// A Visa and a Mastercard test number, as the attack used them.
    static let visaNumber = "4242424242424242"
    static let mastercard = "5555555555554444"

    static func grouped(_ card: String, by separator: String) -> String {
        CardWritings.grouped(card, by: separator)
    }

    static func percentEncoded(_ text: String) -> String { CardWritings.percentEncoded(text) }

    enum Table { case orders, paymentAttempts, sessions }

    static func count(_ table: Table, in store: TestStore) async throws -> Int {
        try await store.database.sql.read { connection in
            let row =
                switch table {
                case .orders: try connection.queryFirst("SELECT COUNT(*) AS n FROM orders")
                case .paymentAttempts: try connection.queryFirst("SELECT COUNT(*) AS n FROM payment_attempts")
                case .sessions: try connection.queryFirst("SELECT COUNT(*) AS n FROM sessions")
                }
            return try row?.decode("n", as: Int.self) ?? -1
        }
    }

    /// Whether any part of `reply` a browser keeps or shows holds the card's digits.
    static func echoes(_ reply: TestStore.Reply, _ card: String) -> Bool {
        let digits = { (text: String) in text.filter(\.isNumber).contains(card) }
        return reply.text.contains(card) || reply.headers.values.contains { digits($0) || $0.contains(card) }
    }

    @Test("a form-encoded card number as a promo code is refused, not echoed", arguments: Backend.allCases)
    func promoCodeThroughAForm(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let browser = TestBrowser(base: store.base)
            _ = try await browser.get("/product/2")
            #expect(try await browser.post("/basket/items", [("product_id", "2")]).status == 303)
            _ = try await browser.get("/basket")
            for body in [
                "code=" + Self.grouped(Self.visaNumber, by: "+"),
                "code=" + Self.percentEncoded(Self.visaNumber),
                "code=" + Self.percentEncoded(Self.grouped(Self.visaNumber, by: ".")),
                "code=" + Self.grouped(Self.visaNumber, by: "%2F"),
            ] {
                let refused = try await browser.post("/basket/promotion", rawBody: body)
                #expect(refused.status == 422, "\(body)")
                #expect(refused.text.contains("entered here"))
                #expect(!Self.echoes(refused, Self.visaNumber), "\(body): \(refused.headers)")
                #expect(refused.header("Set-Cookie") == nil, "\(body)")
            }
            let basket = try await browser.get("/basket")
            #expect(!basket.text.contains(Self.visaNumber) && !basket.text.contains("4242 4242"))
            #expect(store.log.all.allSatisfy { !$0.contains("4242") })
        }
    }

    @Test(
        "a percent-encoded card number as the pay form's key pays nothing and is kept nowhere",
        arguments: Backend.allCases)
    func payFormKey(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let browser = TestBrowser(base: store.base)
            _ = try await browser.get("/product/2")
            #expect(try await browser.post("/basket/items", [("product_id", "2")]).status == 303)
            let review = try await browser.get("/checkout/review?method=card&card=tok_visa")
            let total = try #require(TestBrowser.field("expected_total", in: review.text))
            for token in ["tok_visa", "tok_unavailable"] {
                for key in [
                    Self.percentEncoded(Self.mastercard), Self.percentEncoded(Self.grouped(Self.mastercard, by: "_")),
                    Self.grouped(Self.mastercard, by: "+"),
                ] {
                    let paid = try await browser.post(
                        "/checkout/pay",
                        rawBody: "method=card&card=\(token)&idempotency_key=\(key)&expected_total=\(total)")
                    #expect(paid.status == 422, "\(token) \(key)")
                    #expect(paid.header("Location") == nil)
                    #expect(!Self.echoes(paid, Self.mastercard))
                }
            }
            #expect(try await Self.count(.orders, in: store) == 0)
            #expect(try await Self.count(.paymentAttempts, in: store) == 0)
            #expect(try await store.provider.approvedKeys().isEmpty)
            // The review page does not echo a card number handed to it in the address either.
            let echoed = try await browser.get(
                "/checkout/review?method=card&card=tok_visa&idempotency_key=" + Self.grouped(Self.mastercard, by: "-"))
            #expect(echoed.status == 422 && !Self.echoes(echoed, Self.mastercard))
        }
    }

    @Test("a JSON value the guard cannot decode is refused, not skipped", arguments: Backend.allCases)
    func undecodableJSONFailsClosed(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let carts = try await store.send(
                "POST", "/carts",
                json:
                    #"{"userId": 4.242424242424242e15, "junk": 1e999999999, "products": [{"productId": 1, "quantity": 1}]}"#
            )
            #expect(carts.status == 400)
            #expect(carts.errorType == "malformed_json")
            #expect(!carts.text.contains("4242"))
            // The same without the value it cannot read: refused as a card number, as before.
            let plain = try await store.send(
                "POST", "/carts",
                json: #"{"userId": 4.242424242424242e15, "products": [{"productId": 1, "quantity": 1}]}"#)
            #expect(plain.status == 422)
            #expect(plain.errorType == "card_number_rejected")
            // An ordinary body that happens to hold an exponent still passes.
            let token = try await store.newSession()
            let quantity = try await store.send("PUT", "/api/basket/items/2", token: token, json: #"{"quantity": 2e0}"#)
            #expect(quantity.status == 200)
        }
    }

    @Test(
        "an Idempotency-Key with any separator between the groups is refused and never stored",
        arguments: Backend.allCases)
    func idempotencyKeySeparators(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.workedCaseShopper()
            for separator in ["_", ".", "/", "+", ":", "~"] {
                let key = Self.grouped(Self.visaNumber, by: separator)
                let reply = try await store.checkout(token: token, key: key, method: visa, total: "45.00")
                #expect(reply.status == 422, "\(key)")
                #expect(reply.errorType == "card_number_rejected")
                #expect(!Self.echoes(reply, Self.visaNumber))
            }
            #expect(try await Self.count(.paymentAttempts, in: store) == 0)
            #expect(try await store.checkout(token: token, key: "after", method: visa, total: "45.00").status == 201)
        }
    }

    @Test("a card number in a query string is refused, not echoed into the page", arguments: [Backend.sqlite])
    func queryStrings(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let browser = TestBrowser(base: store.base)
            for query in [
                "?q=" + Self.grouped(Self.visaNumber, by: "+"), "?q=" + Self.percentEncoded(Self.visaNumber),
                "?category=" + Self.grouped(Self.visaNumber, by: "."), "?" + Self.visaNumber + "=1",
            ] {
                let page = try await browser.get("/" + query)
                #expect(page.status == 422, "\(query)")
                #expect(page.text.hasPrefix("<!doctype html>"))
                #expect(!Self.echoes(page, Self.visaNumber), "\(query)")
            }
            #expect(try await browser.get("/?q=socks").status == 200)
        }
    }

    @Test("a card number as the method or in the path never reaches the log", arguments: [Backend.sqlite])
    func requestLine(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            var replies: [TestStore.Reply] = []
            replies.append(try await store.send("X" + Self.visaNumber, "/api/products"))
            replies.append(try await store.send(Self.visaNumber, "/"))
            for separator in ["+", ".", "_", "~", "%2B", "%2E"] {
                let written = Self.grouped(Self.visaNumber, by: separator)
                replies.append(try await store.send("GET", "/nowhere/\(written)"))
                replies.append(try await store.send("GET", "/api/orders/\(written)"))
                replies.append(try await store.send("GET", "/orders/\(written)"))
                replies.append(try await store.send("GET", "/nowhere/" + Self.percentEncoded(written)))
            }
            #expect(replies.allSatisfy { $0.status >= 400 && $0.status < 500 })
            #expect(!replies.contains { Self.echoes($0, Self.visaNumber) })
            let log = store.log.all
            #expect(log.count >= replies.count)
            for line in log {
                #expect(!line.filter(\.isNumber).contains(Self.visaNumber), "\(line)")
                #expect(!line.contains("%34%32"), "\(line)")
            }
        }
    }

    @Test(
        "logging in on a first visit logs in: one session cookie, the anonymous one ended", arguments: Backend.allCases)
    func firstVisitLogin(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let browser = TestBrowser(base: store.base)
            let form = try await browser.get("/login")
            #expect(browser.cookies["store_session"] == nil)
            #expect(form.text.contains("Log in"))
            let sessionsBefore = try await Self.count(.sessions, in: store)
            let loggedIn = try await browser.post(
                "/login", [("email", "pro@onlinestore.test"), ("password", "pro-demo-password")])
            #expect(loggedIn.status == 303)
            let cookies = TestBrowser.setCookieLines(loggedIn).filter { $0.hasPrefix("store_session=") }
            #expect(cookies.count == 1, "\(cookies)")
            // Only the customer's session is left of the visit: the one made for the form is ended.
            #expect(try await Self.count(.sessions, in: store) == sessionsBefore + 1)
            let home = try await browser.follow(loggedIn)
            #expect(home.text.contains("You are logged in"))
            #expect(home.text.contains("Robin"))
            #expect(home.text.contains(">Log out<"))
            // Pro: the cap ships free.
            #expect(try await browser.post("/basket/items", [("product_id", "2")]).status == 303)
            let basket = try await browser.get("/basket")
            #expect(basket.text.contains("Robin"))
            #expect(!basket.text.contains("€4.95") && !basket.text.contains("€26.85"))
            #expect(try await browser.get("/profile").text.contains("pro@onlinestore.test"))
        }
    }

    @Test("logging out without a session sets no new one", arguments: [Backend.sqlite])
    func logoutWithoutASession(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let browser = TestBrowser(base: store.base)
            _ = try await browser.get("/")
            let out = try await browser.post("/logout", [])
            #expect(out.status == 303)
            let cookies = TestBrowser.setCookieLines(out).filter { $0.hasPrefix("store_session=") }
            #expect(cookies.count == 1 && cookies[0].contains("Max-Age=0"), "\(cookies)")
            #expect(try await Self.count(.sessions, in: store) == 0)
        }
    }

    @Test("POST /api/login ends the anonymous bearer session it replaces", arguments: Backend.allCases)
    func apiLoginEndsTheAnonymousSession(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let anonymous = try await store.newSession()
            #expect(try await store.setQuantity(1, of: 2, token: anonymous).status == 200)
            let login = try await store.login("free@onlinestore.test", "free-demo-password", token: anonymous)
            #expect(login.status == 200)
            let customer = try login.decode(LoginResponse.self).token
            #expect(try await store.send("GET", "/api/basket", token: anonymous).status == 401)
            // The basket came along.
            #expect(try await store.basket(customer).items.contains { $0.productID == 2 })
            // Logging in again with the customer's token sent along leaves that session alone.
            #expect(try await store.login("free@onlinestore.test", "free-demo-password", token: customer).status == 200)
            #expect(try await store.send("GET", "/api/basket", token: customer).status == 200)
        }
    }

    @Test("a first form from another scheme of this host is refused", arguments: [Backend.sqlite])
    func originComparesTheScheme(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let host = "\(store.base.host ?? ""):\(store.base.port ?? 80)"
            for (origin, status) in [("https://\(host)", 403), ("http://\(host)", 303)] {
                let browser = TestBrowser(base: store.base)
                let reply = try await browser.post(
                    "/basket/items", [("product_id", "2")], csrf: "", origin: false, headers: ["Origin": origin])
                #expect(reply.status == status, "\(origin)")
            }
        }
    }

    @Test(
        "a smuggled request gets the store's 400 with its headers, and the one behind it is never served",
        arguments: [Backend.sqlite])
    func smugglingThroughTheStore(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let victim = try await store.newSession()
            let head =
                "POST /api/sessions HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "0\r\n\r\nGET /api/basket HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(victim)\r\n\r\n"
            let answer = try await store.rawExchange(head)
            #expect(answer.hasPrefix("HTTP/1.1 400"))
            #expect(answer.contains("malformed_request"))
            #expect(answer.contains("Content-Security-Policy:"))
            #expect(answer.contains("X-Content-Type-Options: nosniff"))
            #expect(!answer.contains("HTTP/1.1 200"), "the request behind it was served")
            #expect(store.log.all.allSatisfy { !$0.contains("/api/basket") })
        }
    }
}
