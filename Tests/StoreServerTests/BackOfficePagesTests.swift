import AdminViews
import CheckoutKit
import Foundation
import StoreAPI
import StoreServerTestSupport
import StoreTestSupport
import Testing

@testable import StoreServer

extension TestBrowser {
    /// Signs in at `/admin/login` as a person would: opens the form, then sends it.
    @discardableResult
    func signInToBackOffice(
        _ email: String = "owner@onlinestore.test", _ password: String = "owner-demo-password"
    ) async throws -> TestStore.Reply {
        _ = try await get(AdminPaths.login)
        return try await post(AdminPaths.login, [("email", email), ("password", password)])
    }

    /// The product form's fields as the page at `path` shows them, with `changes` made.
    func productForm(_ path: String, _ changes: [String: String]) async throws -> [(String, String)] {
        let page = try await get(path).text
        var fields: [(String, String)] = []
        for name in ["title", "category", "price", "sku", "version"] {
            fields.append((name, changes[name] ?? TestBrowser.field(name, in: page) ?? ""))
        }
        fields.append(("description", changes["description"] ?? "Described."))
        if changes["active"] != "" { fields.append(("active", "on")) }
        return fields
    }
}

/// The back office in a browser without JavaScript (docs/BEHAVIOUR.md §13): the staff cookie, forms
/// with CSRF tokens answered by redirects, a product edited by two people at once, stock adjusted
/// once per form.
@Suite("Back office: pages") struct BackOfficePagesTests {
    @Test("signing in: the page asked for, a cookie only /admin gets, a wrong password, logging out")
    func signingIn() async throws {
        try await TestStore.with(.sqlite) { store in
            let browser = TestBrowser(base: store.base)
            let asked = try await browser.get("/admin/products?q=cap")
            #expect(asked.status == 303)
            #expect(asked.header("Location") == "/admin/login?next=%2Fadmin%2Fproducts%3Fq%3Dcap")
            let form = try await browser.get(try #require(asked.header("Location")))
            #expect(form.status == 200)
            #expect(form.text.contains(#"name="next" value="/admin/products?q=cap""#))

            let wrong = try await browser.post(
                AdminPaths.login,
                [("email", "owner@onlinestore.test"), ("password", "not it"), ("next", "/admin/products?q=cap")])
            #expect(wrong.status == 401)
            #expect(wrong.text.contains("The email or password is incorrect."))
            #expect(wrong.text.contains(#"value="owner@onlinestore.test""#))
            #expect(browser.cookies[BackOfficeCookies.session] == nil)

            // A form from another site (no Origin, no Sec-Fetch-Site) cannot sign anyone in.
            let forged = try await browser.post(
                AdminPaths.login, [("email", "owner@onlinestore.test"), ("password", "owner-demo-password")],
                origin: false)
            #expect(forged.status == 403)

            let signedIn = try await browser.post(
                AdminPaths.login,
                [
                    ("email", "owner@onlinestore.test"), ("password", "owner-demo-password"),
                    ("next", "/admin/products?q=cap"),
                ])
            #expect(signedIn.status == 303)
            #expect(signedIn.header("Location") == "/admin/products?q=cap")
            let cookie = try #require(
                TestBrowser.setCookieLines(signedIn).first { $0.hasPrefix(BackOfficeCookies.session + "=") })
            #expect(cookie.contains("Path=/admin"))
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Strict"))
            let list = try await browser.follow(signedIn)
            #expect(list.status == 200)
            #expect(list.header("Cache-Control") == "no-store")
            #expect(list.header("Content-Security-Policy")?.contains("script-src 'none'") == true)
            #expect(list.text.contains("Running Cap") || list.text.contains("cap"))

            // A sign-in page opened while signed in goes on; a `next` off the back office is ignored.
            let again = try await browser.get("/admin/login?next=https://evil.example/")
            #expect(again.status == 303)
            #expect(again.header("Location") == AdminPaths.dashboard)

            // The staff session is not a shopper: the shop's API does not take it.
            let staffToken = try #require(browser.cookies[BackOfficeCookies.session])
            #expect(try await store.send("GET", "/api/basket", token: staffToken).status == 401)

            let loggedOut = try await browser.post(AdminPaths.logout, [])
            #expect(loggedOut.status == 303)
            #expect(loggedOut.header("Location") == AdminPaths.login)
            #expect(browser.cookies[BackOfficeCookies.session] == nil)
            #expect(try await browser.follow(loggedOut).text.contains("You are logged out."))
            // The session is over on the server too, not just forgotten by the browser.
            let replayed = TestBrowser(base: store.base)
            replayed.setCookie(BackOfficeCookies.session, staffToken)
            #expect(try await replayed.get(AdminPaths.products).status == 303)
        }
    }

    @Test("a product added by a form is in the shop at once; a title with markup is shown as text")
    func addingAProduct() async throws {
        try await TestStore.with(.sqlite) { store in
            let browser = TestBrowser(base: store.base)
            try await browser.signInToBackOffice()
            _ = try await browser.get(AdminPaths.newProduct)
            let refused = try await browser.post(
                AdminPaths.newProduct,
                [
                    ("title", "<script>alert(1)</script> gaiters"), ("description", "Keep stones out."),
                    ("category", "apparel"), ("price", "12,50"), ("sku", "GTR-1"), ("active", "on"),
                ])
            #expect(refused.status == 422)
            #expect(refused.text.contains("&lt;script&gt;alert(1)&lt;/script&gt; gaiters"))
            #expect(!refused.text.contains("<script>alert"))
            #expect(refused.text.contains("12,50"))

            let created = try await browser.post(
                AdminPaths.newProduct,
                [
                    ("title", "<script>alert(1)</script> gaiters"), ("description", "Keep stones out."),
                    ("category", "apparel"), ("price", "12.50"), ("sku", "GTR-1"), ("active", "on"),
                ])
            #expect(created.status == 303)
            let location = try #require(created.header("Location"))
            #expect(location.hasPrefix("/admin/products/"))
            let page = try await browser.follow(created)
            #expect(page.text.contains("Product added."))
            let id = try #require(Int64(location.split(separator: "/").last.map(String.init) ?? ""))

            let shop = try await store.send("GET", "/api/products/\(id)")
            #expect(shop.status == 200)
            #expect(shop.text.contains("gaiters"))
            let storefront = try await store.send("GET", "/product/\(id)")
            #expect(storefront.status == 200)
            #expect(storefront.text.contains("&lt;script&gt;alert(1)&lt;/script&gt; gaiters"))
            #expect(!storefront.text.contains("<script>alert"))

            let taken = try await browser.post(
                AdminPaths.newProduct,
                [
                    ("title", "Other"), ("description", ""), ("category", "apparel"), ("price", "3.00"),
                    ("sku", "GTR-1"),
                ])
            #expect(taken.status == 422)
            #expect(taken.text.contains("That SKU is used by"))
        }
    }

    @Test(
        "two people save one product: the second is refused with the first's change shown, then saves on purpose",
        arguments: Backend.allCases)
    func editConflict(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let first = TestBrowser(base: store.base)
            let second = TestBrowser(base: store.base)
            try await first.signInToBackOffice()
            try await second.signInToBackOffice()
            let path = AdminPaths.product(ProductID(1))
            let firstForm = try await first.productForm(path, ["price": "99.00"])
            let secondForm = try await second.productForm(path, ["title": "Renamed by the second"])
            let saved = try await first.post(path, firstForm)
            #expect(saved.status == 303)
            #expect(try await first.follow(saved).text.contains("Product saved."))

            let refused = try await second.post(path, secondForm)
            #expect(refused.status == 409)
            #expect(refused.text.contains("Someone changed this product since you opened it"))
            #expect(refused.text.contains("€99.00"))
            #expect(refused.text.contains("Renamed by the second"))
            let product = try #require(try await store.database.products.product(ProductID(1)))
            #expect(product.details.price.minorUnits == 99_00)
            #expect(product.details.title != "Renamed by the second")

            // The refused page's form is made against the current version: saving it is deliberate.
            let version = try #require(TestBrowser.field("version", in: refused.text))
            #expect(version == String(product.version))
            let resaved = try await second.post(
                path, secondForm.map { $0.0 == "version" ? ("version", version) : $0 })
            #expect(resaved.status == 303)
            let after = try #require(try await store.database.products.product(ProductID(1)))
            #expect(after.details.title == "Renamed by the second")
        }
    }

    @Test("adjusting stock: once per form however often it is sent, never below zero, a CSRF token required")
    func adjustingStock() async throws {
        try await TestStore.with(.sqlite) { store in
            let browser = TestBrowser(base: store.base)
            try await browser.signInToBackOffice()
            let path = AdminPaths.product(ProductID(2))
            let stockPath = AdminPaths.productStock(ProductID(2))
            let before = try await store.managedStock(2)
            let page = try await browser.get(path)
            let key = try #require(TestBrowser.field("idempotency_key", in: page.text))
            let fields = [("change", "+12"), ("reason", "received"), ("note", "Pallet 7"), ("idempotency_key", key)]
            let adjusted = try await browser.post(stockPath, fields)
            #expect(adjusted.status == 303)
            #expect(
                try await browser.follow(adjusted).text.contains("Stock adjusted by +12: \(before + 12) in stock now."))
            // Sent again (a double click, the back button): nothing more.
            #expect(try await browser.post(stockPath, fields).status == 303)
            #expect(try await store.managedStock(2) == before + 12)
            #expect(try await store.ledgerSum(2) == before + 12)

            let tooMany = try await browser.post(
                stockPath, [("change", "-\(before + 13)"), ("reason", "damaged"), ("note", "")])
            #expect(tooMany.status == 409)
            #expect(tooMany.text.contains("Only \(before + 12) in stock"))
            let bad = try await browser.post(stockPath, [("change", "twelve"), ("reason", "sale"), ("note", "")])
            #expect(bad.status == 422)
            #expect(bad.text.contains("A change is a whole number"))
            #expect(bad.text.contains("Choose a reason."))
            let forged = try await browser.post(stockPath, [("change", "5"), ("reason", "received")], csrf: "")
            #expect(forged.status == 403)
            #expect(forged.text.contains("This form has expired"))
            #expect(try await store.managedStock(2) == before + 12)
        }
    }

    @Test(
        "importing a CSV file: a preview with every bad row by line, then all of it or nothing",
        arguments: Backend.allCases)
    func importingACatalogFile(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let browser = TestBrowser(base: store.base)
            try await browser.signInToBackOffice()
            #expect(try await browser.get(AdminPaths.importProducts).status == 200)
            let header = "sku,title,description,category,price,stock,active\r\n"
            let bad =
                header
                + "IMP-1,Trail gaiters,Keep stones out,apparel,19.90,5,true\r\nIMP-2,Head band,,apparel,\"12,50\",3,true\r\n"
            let refused = try await browser.postMultipart(
                AdminPaths.importProducts, [], files: [("file", "catalog.csv", Array(bad.utf8))])
            #expect(refused.status == 422)
            #expect(refused.text.contains("3"))  // the bad row's line
            #expect(!refused.text.contains(#"name="upload""#))
            #expect(try await store.database.products.product(sku: "IMP-1") == nil)

            let good =
                header
                + "IMP-1,Trail gaiters,Keep stones out,apparel,19.90,5,true\r\nIMP-2,Head band,,apparel,12.50,3,true\r\n"
            let preview = try await browser.postMultipart(
                AdminPaths.importProducts, [], files: [("file", "catalog.csv", Array(good.utf8))])
            #expect(preview.status == 200)
            #expect(preview.text.contains("Trail gaiters"))
            let upload = try #require(TestBrowser.field("upload", in: preview.text))
            #expect(try await store.database.products.product(sku: "IMP-1") == nil)

            let applied = try await browser.post(AdminPaths.importProducts, [("upload", upload)])
            #expect(applied.status == 303)
            #expect(applied.header("Location") == AdminPaths.products)
            #expect(try await browser.follow(applied).text.contains("Import applied: 2 added, 0 changed."))
            let gaiters = try #require(try await store.database.products.product(sku: "IMP-1"))
            #expect(gaiters.stock == 5)
            #expect(try await store.send("GET", "/api/products/\(gaiters.id.rawValue)").status == 200)
            // The same preview cannot be imported twice.
            let again = try await browser.post(AdminPaths.importProducts, [("upload", upload)])
            #expect(again.status == 422)
            #expect(again.text.contains("imported already"))

            let export = try await browser.get(AdminPaths.exportProducts)
            #expect(export.status == 200)
            #expect(export.header("Content-Type")?.hasPrefix("text/csv") == true)
            #expect(export.text.contains("IMP-2,Head band"))
        }
    }

    @Test("uploading an image: a PNG is kept and shown; a text file named .png is refused with the reason")
    func uploadingAnImage() async throws {
        try await TestStore.with(.sqlite) { store in
            let browser = TestBrowser(base: store.base)
            try await browser.signInToBackOffice()
            let path = AdminPaths.productImage(ProductID(3))
            _ = try await browser.get(AdminPaths.product(ProductID(3)))
            let text = try await browser.postMultipart(
                path, [], files: [("image", "photo.png", Array("not an image at all".utf8))])
            #expect(text.status == 422)
            #expect(text.text.contains("PNG or JPEG"))
            let uploaded = try await browser.postMultipart(path, [], files: [("image", "cap.png", TestImages.png)])
            #expect(uploaded.status == 303)
            let page = try await browser.follow(uploaded)
            #expect(page.text.contains("Image uploaded."))
            let product = try #require(try await store.database.products.product(ProductID(3)))
            #expect(product.imagePath.hasPrefix("/images/products/"))
            #expect(page.text.contains(product.imagePath))
            let image = try await store.send("GET", product.imagePath)
            #expect(image.status == 200)
            #expect(image.header("Content-Type") == "image/png")
            #expect(Array(image.body) == TestImages.png)
        }
    }
}
