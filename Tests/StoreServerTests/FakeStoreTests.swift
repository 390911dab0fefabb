import Foundation
import StoreCrypto
import StoreDatabase
import StoreServerTestSupport
import StoreTestSupport
import Testing

/// The Fake-Store-compatible routes keep that API's shapes.
@Suite("Fake-Store-compatible routes") struct FakeStoreTests {
    func object(_ reply: TestStore.Reply) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
    }

    func array(_ reply: TestStore.Reply) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: reply.body) as? [[String: Any]])
    }

    @Test(arguments: Backend.allCases)
    func productShapes(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let products = try array(try await store.send("GET", "/products"))
            #expect(products.count == 20)
            let first = try #require(products.first)
            #expect(Set(first.keys) == ["id", "title", "price", "description", "category", "image", "rating"])
            #expect((first["price"] as? NSNumber)?.decimalValue == Decimal(string: "10.2"))
            #expect((first["image"] as? String)?.hasPrefix("http://127.0.0.1:\(store.server.port)/images/") == true)
            let rating = try #require(first["rating"] as? [String: Any])
            #expect(Set(rating.keys) == ["rate", "count"])

            let one = try object(try await store.send("GET", "/products/2"))
            #expect(one["title"] as? String == "Running cap")
            #expect((one["price"] as? NSNumber)?.decimalValue == Decimal(string: "21.9"))
            #expect(try await store.send("GET", "/products/999").status == 404)

            let categories = try #require(
                try JSONSerialization.jsonObject(with: try await store.send("GET", "/products/categories").body)
                    as? [String])
            #expect(categories == ["hydration", "apparel", "accessories", "nutrition"])
            let apparel = try array(try await store.send("GET", "/products/category/apparel"))
            #expect(!apparel.isEmpty && apparel.allSatisfy { $0["category"] as? String == "apparel" })
            #expect(try array(try await store.send("GET", "/products/category/unknown")).isEmpty)

            // An odd Host header never ends up in an image URL.
            let odd = try array(try await store.send("GET", "/products", headers: ["Host": "evil.example/\"><x"]))
            #expect(odd.allSatisfy { ($0["image"] as? String)?.contains("evil") == false })
        }
    }

    @Test(arguments: Backend.allCases)
    func loginAndOwnUserOnly(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let login = try object(
                try await store.send(
                    "POST", "/auth/login", json: #"{"username":"pro@onlinestore.test","password":"pro-demo-password"}"#)
            )
            let token = try #require(login["token"] as? String)
            #expect(
                try await store.send(
                    "POST", "/auth/login", json: #"{"username":"pro@onlinestore.test","password":"x"}"#
                )
                .status == 401)

            let customer = try #require(try await store.database.customers.customer(email: "pro@onlinestore.test"))
            let user = try object(try await store.send("GET", "/users/\(customer.id.rawValue)", token: token))
            #expect(user["email"] as? String == "pro@onlinestore.test")
            let name = try #require(user["name"] as? [String: Any])
            #expect(name["firstname"] as? String == "Robin")
            #expect(name["lastname"] as? String == "Runner")
            #expect(user["password"] == nil)
            #expect(
                !(try await store.send("GET", "/users/\(customer.id.rawValue)", token: token).text.contains("argon2")))

            // The demo customers are public, as the product-list app expects: with another
            // customer's token and with none.
            let free = try #require(try await store.database.customers.customer(email: "free@onlinestore.test"))
            let seenByPro = try object(try await store.send("GET", "/users/\(free.id.rawValue)", token: token))
            #expect(seenByPro["email"] as? String == "free@onlinestore.test")
            let anonymous = try await store.send("GET", "/users/\(customer.id.rawValue)")
            #expect(anonymous.status == 200)
            #expect(try object(anonymous)["email"] as? String == "pro@onlinestore.test")

            // Any other customer is seen only by themselves; to everyone else it does not exist.
            let privateID = try await store.database.customers.create(
                NewCustomer(
                    email: "private@onlinestore.test", passwordHash: try PasswordHasher.minimal.hash("a private one"),
                    firstName: "Pri", lastName: "Vate", subscription: .none), now: Date())
            let path = "/users/\(privateID.rawValue)"
            #expect(try await store.send("GET", path).status == 404)
            #expect(try await store.send("GET", path, token: token).status == 404)
            #expect(try await store.send("GET", "/users/999999").status == 404)
            let own = try object(try await store.login("private@onlinestore.test", "a private one"))
            let ownToken = try #require(own["token"] as? String)
            let seenBySelf = try await store.send("GET", path, token: ownToken)
            #expect(try object(seenBySelf)["email"] as? String == "private@onlinestore.test")
            #expect(seenBySelf.header("Vary") == "Authorization")
        }
    }

    @Test(arguments: Backend.allCases)
    func cartsAcceptBothShapes(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            // The documented cart object, for a shopper with a session.
            let token = try await store.newSession()
            let documented = try await store.send(
                "POST", "/carts", token: token,
                json:
                    #"{"userId":5,"date":"2020-02-03","products":[{"productId":2,"quantity":1},{"productId":3,"quantity":2}]}"#
            )
            #expect(documented.status == 201)
            let cart = try object(documented)
            #expect(cart["id"] as? Int != nil)
            #expect((cart["products"] as? [[String: Any]])?.count == 2)
            #expect(try await store.basket(token).subtotal == eur(39_80))

            // The bare array apps send, without a session: a new basket whose token comes back.
            let bare = try await store.send("POST", "/carts", json: #"[{"productId":1,"quantity":3}]"#)
            #expect(bare.status == 201)
            let newToken = try #require(bare.header("X-Session-Token"))
            #expect(try await store.basket(newToken).items.map(\.quantity) == [3])

            // Validated like the native API; nothing changes on an error.
            #expect(
                try await store.send("POST", "/carts", token: token, json: #"[{"productId":2,"quantity":11}]"#).status
                    == 422)
            #expect(
                try await store.send("POST", "/carts", token: token, json: #"[{"productId":999,"quantity":1}]"#).status
                    == 422)
            #expect(try await store.send("POST", "/carts", token: token, json: #"{"products":"no"}"#).status == 422)
            #expect(try await store.send("POST", "/carts", token: token, json: #"[{"productId":2"#).status == 400)
            #expect(try await store.basket(token).subtotal == eur(39_80))
        }
    }

    @Test(arguments: [Backend.sqlite])
    func imagesAreServedWithTypeAndCaching(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let image = try await store.send("GET", "/images/water-bottle.svg")
            #expect(image.status == 200)
            #expect(image.header("Content-Type") == "image/svg+xml")
            #expect(image.header("Cache-Control")?.contains("max-age") == true)
            #expect(image.text.hasPrefix("<svg"))
            let tag = try #require(image.header("ETag"))
            #expect(
                try await store.send("GET", "/images/water-bottle.svg", headers: ["If-None-Match": tag]).status == 304)
            #expect(try await store.send("GET", "/images/..%2Fsecret.svg").status == 404)
            #expect(try await store.send("GET", "/images/nope.svg").status == 404)
        }
    }
}
