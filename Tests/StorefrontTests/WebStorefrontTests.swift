import CheckoutKit
import Foundation
import StoreAPI
import StoreDatabase
import StoreServer
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import TestWaiting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The web storefront through a real server: pages, forms, CSRF, POST-redirect-GET, cookies.
@Suite("Web storefront") struct WebStorefrontTests {
    static let securityHeaders = ["Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"]

    func orderCount(_ store: TestStore) async throws -> Int {
        try await store.database.sql.read { connection in
            try connection.queryFirst("SELECT COUNT(*) AS n FROM orders")?.decode("n", as: Int.self) ?? -1
        }
    }

    @Test("every page answers HTML with the security headers; errors are pages too", arguments: [Backend.sqlite])
    func pagesAndErrors(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let browser = TestBrowser(base: store.base)
            for path in [
                "/", "/?q=cap&sort=price-asc", "/?category=apparel", "/product/2", "/basket", "/login", "/orders",
            ] {
                let page = try await browser.get(path)
                #expect(page.status == 200, "\(path)")
                #expect(page.header("Content-Type") == "text/html; charset=utf-8", "\(path)")
                #expect(page.text.hasPrefix("<!doctype html>"), "\(path)")
                for header in Self.securityHeaders { #expect(page.header(header) != nil, "\(path) \(header)") }
            }
            #expect(try await browser.get("/").text.contains("Running cap"))
            #expect(try await browser.get("/?q=socks").text.contains("Running socks"))
            #expect(!(try await browser.get("/?q=socks").text.contains("Running cap")))
            let css = try await browser.get("/static/store.css")
            #expect(css.header("Content-Type") == "text/css; charset=utf-8" && !css.body.isEmpty)
            // Pages that need something first send the visitor there.
            #expect(try await browser.get("/checkout").header("Location") == "/basket")
            #expect(try await browser.get("/profile").header("Location") == "/login")
            // Friendly error pages in the store's layout, never JSON; the API keeps its JSON.
            let missing = try await browser.get("/no/such/page")
            #expect(missing.status == 404 && missing.text.contains("<!doctype html>"))
            #expect(try await browser.get("/product/999").status == 404)
            #expect(try await browser.get("/orders/ord_0000000000000000000000000a").status == 404)
            #expect(try await browser.get("/api/nothing").header("Content-Type") == "application/json; charset=utf-8")
            // A search query is escaped, never markup.
            let escaped = try await browser.get("/?q=%3Cscript%3Ealert(1)%3C/script%3E")
            #expect(escaped.status == 200 && !escaped.text.contains("<script>"))
            // Reading pages starts no session.
            #expect(browser.cookies.isEmpty)
        }
    }

    @Test(
        "forms: CSRF bound to the session, same-origin first form, 303 answers, cookie flags",
        arguments: [Backend.sqlite])
    func csrfAndCookies(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let add = [("product_id", "2"), ("quantity", "1"), ("return_to", "/")]
            // Without a session: only from the store's own pages.
            let stranger = TestBrowser(base: store.base)
            let refused = try await stranger.post("/basket/items", add, origin: false)
            #expect(refused.status == 403 && refused.text.contains("<!doctype html>"))
            #expect(stranger.cookies.isEmpty)
            let crossSite = try await stranger.post(
                "/basket/items", add, origin: false, headers: ["Origin": "https://evil.example"])
            #expect(crossSite.status == 403)

            let browser = TestBrowser(base: store.base)
            let first = try await browser.post("/basket/items", add)
            #expect(first.status == 303 && first.header("Location") == "/")
            let cookie = try #require(TestBrowser.setCookieLines(first).first { $0.hasPrefix("store_session=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && !cookie.contains("Secure"))
            #expect(browser.cookies["store_session"] != nil)

            // With a session: the CSRF token of this session, nothing else.
            _ = try await browser.get("/basket")
            #expect(try await browser.post("/basket/items", add, csrf: "").status == 403)
            let other = TestBrowser(base: store.base)
            _ = try await other.post("/basket/items", add)
            _ = try await other.get("/basket")
            #expect(try await browser.post("/basket/items", add, csrf: other.csrf).status == 403)
            #expect(try await browser.post("/basket/items", add).status == 303)
            let basket = try await browser.get("/basket")
            #expect(basket.text.contains("Running cap"))

            // X-Forwarded-Proto from a client that is not a trusted proxy is ignored.
            let forged = try await TestBrowser(base: store.base).post(
                "/basket/items", add, headers: ["X-Forwarded-Proto": "https"])
            #expect(TestBrowser.setCookieLines(forged).allSatisfy { !$0.contains("Secure") })

            // return_to never leaves the store.
            for target in ["https://evil.example/", "//evil.example/", "/\\evil.example"] {
                let away = try await browser.post(
                    "/basket/items", [("product_id", "3"), ("quantity", "1"), ("return_to", target)])
                #expect(away.header("Location") == "/", "\(target)")
            }
        }
    }

    @Test("a shop's catalog: every category shows its first products and a link to all; one category comes in pages")
    func largeCatalog() async throws {
        var configuration = StoreConfiguration()
        configuration.catalogRefreshInterval = .milliseconds(20)
        try await TestStore.with(.sqlite, configuration: configuration) { store in
            _ = try await store.database.sql.write { connection in
                for index in 1...100 {
                    try connection.execute(
                        """
                        INSERT INTO products (id, title, description, category, price_minor, currency, image_path,
                            rating_tenths, rating_count, stock, sku)
                        VALUES (\(1_000 + index), \("Extra bottle \(index)"), 'A bottle.', 'hydration', \(500 + index),
                            'EUR', '/images/water-bottle.svg', 40, 10, 20, \("EXTRA-\(index)"))
                        """)
                }
            }
            let browser = TestBrowser(base: store.base)
            let home = try #require(
                try await eventuallyValue {
                    let text = try await browser.get("/").text
                    return text.contains("See all 105 in Hydration") ? text : nil
                })
            #expect(home.contains(#"href="/?category=hydration""#))
            #expect(home.contains("Extra bottle 7<") && !home.contains("Extra bottle 8<"))
            #expect(home.contains("Running cap"))
            let second = try await browser.get("/?category=hydration&page=2").text
            #expect(second.contains("Showing 49 to 96 of 105") && second.contains("Page 2 of 3"))
            #expect(second.contains(#"<a href="/?category=hydration">Previous page</a>"#))
            #expect(second.contains(#"<a href="/?category=hydration&amp;page=3">Next page</a>"#))
            #expect(second.contains("Extra bottle 44<") && !second.contains("Extra bottle 43<"))
            let past = try await browser.get("/?category=hydration&page=999").text
            #expect(past.contains("Page 3 of 3") && past.contains("Showing 97 to 105 of 105"))
            #expect(!past.contains("Next page"))
            #expect(past.contains(#"name="return_to" value="/?category=hydration&amp;page=3""#))
            // A card number as the page is refused before the page is made, and never echoed.
            let card = try await browser.get("/?category=hydration&page=4242424242424242")
            #expect(card.status == 422 && !card.text.contains("4242424242424242"))
            #expect(card.header("Location") == nil && card.header("Set-Cookie") == nil)
            // Adding to the basket from page 2 comes back to page 2.
            #expect(second.contains(#"name="return_to" value="/?category=hydration&amp;page=2""#))
        }
    }

    @Test("behind a trusted proxy that says https, the cookies are Secure", arguments: [Backend.sqlite])
    func secureCookiesBehindATrustedProxy(backend: Backend) async throws {
        let loopback = try #require(TrustedProxies(parsing: "127.0.0.1/32,::1"))
        try await TestStore.with(backend, trustedProxies: loopback) { store in
            let add = [("product_id", "2"), ("quantity", "1"), ("return_to", "/")]
            // The browser sees the proxy's https address, and its Origin says so.
            let origin = store.base.absoluteString.replacingOccurrences(of: "http://", with: "https://")
            let tls = try await TestBrowser(base: store.base).post(
                "/basket/items", add, origin: false,
                headers: [
                    "X-Forwarded-Proto": "https", "Origin": String(origin.dropLast(origin.hasSuffix("/") ? 1 : 0)),
                ])
            #expect(tls.status == 303)
            #expect(!TestBrowser.setCookieLines(tls).isEmpty)
            #expect(TestBrowser.setCookieLines(tls).allSatisfy { $0.contains("Secure") })
        }
    }

    @Test("shopping: the worked case through the pages, paying once whatever the clicks", arguments: Backend.allCases)
    func shoppingThroughThePages(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let browser = TestBrowser(base: store.base)
            // 10.20 + 21.90 + 2 × 8.95 = 50.00: free shipping; RUN10 takes 5.00 off.
            for (product, quantity) in [("1", "1"), ("2", "1"), ("3", "1")] {
                let added = try await browser.post(
                    "/basket/items", [("product_id", product), ("quantity", quantity), ("return_to", "/")])
                #expect(added.status == 303)
                _ = try await browser.follow(added)
            }
            _ = try await browser.get("/basket")
            let updated = try await browser.follow(try await browser.post("/basket/items/3", [("quantity", "2")]))
            #expect(updated.text.contains("Updated the quantity of Running socks."))
            #expect(updated.text.contains("€50.00"))
            let applied = try await browser.follow(try await browser.post("/basket/promotion", [("code", "run10")]))
            #expect(applied.text.contains("Promo code applied."))
            #expect(applied.text.contains("€45.00") && applied.text.contains("−€5.00"))
            // The status is shown once.
            #expect(!(try await browser.get("/basket").text.contains("Promo code applied.")))
            let bad = try await browser.follow(try await browser.post("/basket/promotion", [("code", "<b>NOPE</b>")]))
            #expect(bad.text.contains("&lt;b&gt;NOPE&lt;/b&gt;") && !bad.text.contains("<b>NOPE"))

            let review = try await browser.get("/checkout/review?method=card&card=tok_visa")
            let key = try #require(TestBrowser.field("idempotency_key", in: review.text))
            let expected = try #require(TestBrowser.field("expected_total", in: review.text))
            #expect(expected == "45.00")
            let due = try StoreConfiguration().fees.quote(for: .card, total: eur(4500)).amountDue
            #expect(review.text.contains("Pay \(due.formatted(locale: Locale(identifier: "en_US")))"))
            let fields = [
                ("idempotency_key", key), ("method", "card"), ("card", "tok_visa"), ("expected_total", expected),
            ]

            // The same form sent twice at once, then once more (back and resubmit): one order.
            async let first = browser.post("/checkout/pay", fields)
            async let second = browser.post("/checkout/pay", fields)
            let answers = try await [first, second]
            let third = try await browser.post("/checkout/pay", fields)
            let locations = Set((answers + [third]).compactMap { $0.header("Location") })
            #expect(locations.count == 1, "\(answers.map(\.status)) \(locations)")
            let receiptPath = try #require(locations.first)
            #expect(receiptPath.hasPrefix("/orders/ord_"))
            let receipt = try await browser.get(receiptPath)
            #expect(receipt.status == 200 && receipt.text.contains(due.formatted(locale: Locale(identifier: "en_US"))))
            // Refreshing the receipt charges nothing.
            _ = try await browser.get(receiptPath)
            #expect(try await orderCount(store) == 1)
            #expect(try await browser.get("/basket").text.contains("Your basket is empty"))
        }
    }

    @Test(
        "a declined card says so and keeps the basket; login renews the session; logout ends it",
        arguments: [Backend.sqlite])
    func declineLoginLogout(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let browser = TestBrowser(base: store.base)
            _ = try await browser.post(
                "/basket/items", [("product_id", "2"), ("quantity", "1"), ("return_to", "/product/2")])
            let review = try await browser.get("/checkout/review?method=card&card=tok_chargeDeclined")
            let key = try #require(TestBrowser.field("idempotency_key", in: review.text))
            let declined = try await browser.post(
                "/checkout/pay",
                [
                    ("idempotency_key", key), ("method", "card"), ("card", "tok_chargeDeclined"),
                    ("expected_total", "26.85"),
                ])
            let again = try await browser.follow(declined)
            #expect(again.text.contains("The card was declined."))
            // The same form sent again replays the decline, with its own reason.
            _ = try await browser.get("/checkout/review?method=card&card=tok_insufficientFunds")
            let short = try #require(
                TestBrowser.field(
                    "idempotency_key",
                    in: try await browser.get("/checkout/review?method=card&card=tok_insufficientFunds").text))
            for _ in 0..<2 {
                let refused = try await browser.post(
                    "/checkout/pay",
                    [
                        ("idempotency_key", short), ("method", "card"), ("card", "tok_insufficientFunds"),
                        ("expected_total", "26.85"),
                    ])
                #expect(try await browser.follow(refused).text.contains("The card has insufficient funds."))
            }
            _ = try await browser.get("/checkout/review?method=card&card=tok_chargeDeclined")
            #expect(TestBrowser.field("idempotency_key", in: again.text) != key, "a declined key is spent: a new one")
            #expect(try await orderCount(store) == 0)
            #expect(try await browser.get("/basket").text.contains("Running cap"))

            // Logging in keeps the basket, and the pre-login session token is worth nothing after.
            let before = try #require(browser.cookies["store_session"])
            _ = try await browser.get("/login")
            let loggedIn = try await browser.post(
                "/login", [("email", "pro@onlinestore.test"), ("password", "pro-demo-password")])
            #expect(loggedIn.status == 303)
            let after = try #require(browser.cookies["store_session"])
            #expect(after != before)
            let home = try await browser.get("/basket")
            #expect(home.text.contains("Running cap") && home.text.contains("Robin"))
            #expect(try await store.send("GET", "/api/basket", token: before).status == 401)
            // Pro: free shipping on a small basket.
            #expect(home.text.contains("€21.90"))
            #expect(try await browser.get("/profile").text.contains("pro@onlinestore.test"))

            let loggedOut = try await browser.post("/logout", [])
            #expect(loggedOut.status == 303)
            #expect(browser.cookies["store_session"] == nil)
            #expect(try await store.send("GET", "/api/basket", token: after).status == 401)

            let wrong = try await browser.follow(
                try await browser.post("/login", [("email", "pro@onlinestore.test"), ("password", "nope")]))
            #expect(wrong.text.contains("The email or password is incorrect."))
        }
    }

    @Test("a product id that is not a positive whole number names no product, in any form", arguments: [Backend.sqlite])
    func productIDs(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let browser = TestBrowser(base: store.base)
            _ = try await browser.get("/product/2")
            #expect(try await browser.post("/basket/items", [("product_id", "2")]).status == 303)
            _ = try await browser.get("/basket")
            for id in ["0", "-1", "+2", "2.0"] {
                #expect(try await browser.get("/product/\(id)").status == 404, "\(id)")
                #expect(try await browser.post("/basket/items", [("product_id", id)]).status == 404, "\(id)")
                #expect(try await browser.post("/basket/items/\(id)", [("quantity", "3")]).status == 404, "\(id)")
                // Removing "product -1" said "Removed The product from your basket." before.
                #expect(try await browser.post("/basket/items/\(id)/remove", []).status == 404, "\(id)")
            }
            #expect(try await browser.get("/basket").text.contains("Running cap"))
        }
    }

    @Test("logging in merges the baskets and says which lines were capped", arguments: [Backend.sqlite])
    func loginMergeNotice(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            // The customer's own basket already holds 4 pairs of socks.
            let apiToken = try await store.login("free@onlinestore.test", "free-demo-password").decode(
                LoginResponse.self
            ).token
            #expect(try await store.setQuantity(4, of: 3, token: apiToken).status == 200)
            let browser = TestBrowser(base: store.base)
            _ = try await browser.follow(
                try await browser.post("/basket/items", [("product_id", "3"), ("quantity", "8"), ("return_to", "/")]))
            let page = try await browser.follow(
                try await browser.post(
                    "/login", [("email", "free@onlinestore.test"), ("password", "free-demo-password")]))
            #expect(page.text.contains("Running socks went over 10"), "\(page.text)")
            let basket = try await store.basket(apiToken)
            #expect(basket.items.first { $0.productID == 3 }?.quantity == 10)
        }
    }
}
