import AdminViews
import CheckoutKit
import Foundation
import HTML
import Testing

/// The back office's pages as pure functions: every page one `h1`, no script, every POST form with
/// the session's CSRF token, what staff typed shown as text, and the navigation by role.
@Suite struct AdminPagesTests {
    static let markup = "<script>alert(1)</script> gaiters"
    static let owner = AdminContext(
        staff: AdminContext.Staff(email: "owner@onlinestore.test", role: .owner), csrfToken: "abcdefabcdef")
    static let price = Money(minorUnits: 19_90, currency: .eur)
    static let day = Date(timeIntervalSince1970: 1_780_000_000)

    static var pages: [(String, HTMLDocument)] {
        let details = ProductDetails(
            sku: "GTR-1", title: markup, description: "Keep <b>stones</b> out.", category: "apparel", price: price,
            active: true)
        let product = AdminProductPage(
            id: ProductID(7), title: markup, isActive: true, form: AdminProductForm(details), version: 3,
            conflict: AdminProductPage.EditConflict(changedBy: "catalog@shop.test", changedAt: day, current: details),
            currency: .eur, categories: ["apparel"], imagePath: "/images/placeholder.svg", stock: 4,
            stockForm: AdminProductPage.StockForm(idempotencyKey: "key-1"),
            ledger: [
                AdminProductPage.LedgerEntry(
                    at: day, actor: .staff(email: "owner@onlinestore.test"), change: 4, reason: .received,
                    note: markup, stockAfter: 4)
            ])
        let row = AdminProductListPage.Row(
            id: ProductID(7), title: markup, sku: "GTR-1", category: "apparel", price: price, stock: 4, active: false)
        let audit = AdminAuditPage(
            entries: [
                AdminAuditPage.Entry(
                    id: 1, at: day, actor: "owner@onlinestore.test", action: "product.changed", subject: "product:7",
                    before: #"{"title":"\#(markup)"}"#, after: nil)
            ], scope: .everyone, hasOlder: false)
        return [
            ("login", AdminPages.login(AdminLoginPage(email: markup, problem: .wrongCredentials), context: owner)),
            (
                "products",
                AdminPages.products(
                    AdminProductListPage(
                        search: markup, products: [row], paging: AdminPaging(page: 1, pageSize: 50, totalCount: 1)),
                    context: owner)
            ),
            ("product", AdminPages.product(product, context: owner)),
            ("new product", AdminPages.newProduct(AdminNewProductPage(currency: .eur, categories: []), context: owner)),
            ("audit", AdminPages.audit(audit, context: owner)),
            ("error", AdminPages.error(.forbidden(role: .catalog), context: owner)),
        ]
    }

    @Test("every page: one h1, no script, and the CSRF token in each of its POST forms")
    func everyPageHasItsFrame() {
        for (name, document) in Self.pages {
            let html = document.renderString()
            #expect(html.components(separatedBy: "<h1").count == 2, "\(name)")
            #expect(!html.contains("<script"), "\(name)")
            #expect(!html.contains(" style="), "\(name)")
            let forms = html.components(separatedBy: #"method="post""#).count - 1
            let tokens = html.components(separatedBy: #"name="csrf" value="abcdefabcdef""#).count - 1
            #expect(forms == tokens, "\(name): \(forms) forms, \(tokens) tokens")
        }
    }

    @Test("what staff typed is shown as text everywhere")
    func typedTextIsEscaped() {
        for (name, document) in Self.pages {
            let html = document.renderString()
            #expect(!html.contains("<script>alert"), "\(name)")
            #expect(!html.contains("<b>stones"), "\(name)")
        }
        let product = Self.pages.first { $0.0 == "product" }?.1.renderString() ?? ""
        #expect(product.contains("&lt;script&gt;alert(1)&lt;/script&gt; gaiters"))
        #expect(product.contains("Someone changed this product since you opened it"))
        #expect(product.contains(#"name="idempotency_key" value="key-1""#))
    }

    @Test("the header links to the sections the role may open, and says who is signed in")
    func navigationFollowsTheRole() {
        let catalog = AdminContext(
            staff: AdminContext.Staff(email: "catalog@shop.test", role: .catalog), csrfToken: "abcdefabcdef")
        let page = AdminPages.error(.notFound, context: catalog).renderString()
        #expect(page.contains(#"href="/admin/products""#))
        #expect(page.contains(#"href="/admin/promotions""#))
        #expect(!page.contains(#"href="/admin/staff""#))
        #expect(!page.contains(#"href="/admin/orders""#))
        #expect(page.contains("catalog@shop.test"))
        let owner = AdminPages.error(.notFound, context: Self.owner).renderString()
        #expect(owner.contains(#"href="/admin/staff""#))
        #expect(owner.contains(#"href="/admin/orders""#))
    }

    @Test("the sign-in page has no navigation and returns to the page asked for")
    func signInPage() {
        let context = AdminContext(staff: nil, csrfToken: "")
        let html = AdminPages.login(AdminLoginPage(next: "/admin/orders?q=a&b"), context: context).renderString()
        #expect(!html.contains(#"href="/admin/products""#))
        #expect(html.contains(#"name="next" value="/admin/orders?q=a&amp;b""#))
        #expect(html.contains(#"autocomplete="current-password""#))
    }
}
