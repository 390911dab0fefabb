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
            ("order", AdminPages.order(order, context: owner)),
            ("refund", AdminPages.refund(refundPage, context: owner)),
            ("refund review", AdminPages.refundReview(refundReview, context: owner)),
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

    static var order: AdminOrderPage {
        let cap = Money(minorUnits: 8_50, currency: .eur)
        return AdminOrderPage(
            id: "ord_01JTESTORDER000000000000000", placedAt: day,
            lines: [AdminOrderPage.Line(title: markup, unitPrice: cap, quantity: 2, lineTotal: price)],
            amounts: AdminOrderPage.Amounts(
                subtotal: price, discount: .zero(.eur), promotionCode: nil, shipping: .zero(.eur), fee: .zero(.eur),
                total: price),
            payment: AdminOrderPage.Payment(
                method: .card, cardBrand: "visa", status: .partiallyRefunded, paid: price, refunded: cap,
                pending: cap, remaining: Money(minorUnits: 2_90, currency: .eur)),
            customer: nil, fulfilment: .unfulfilled,
            timeline: [
                AdminOrderPage.TimelineEntry(event: .paid(price), actor: .customer, at: day),
                AdminOrderPage.TimelineEntry(
                    event: .refundRequested(cap), actor: .staff(email: "owner@onlinestore.test"), at: day),
                AdminOrderPage.TimelineEntry(
                    event: .refunded(cap), actor: .staff(email: "owner@onlinestore.test"), at: day),
                AdminOrderPage.TimelineEntry(
                    event: .refundFailed(reason: "refund_refused"), actor: .staff(email: "owner@onlinestore.test"),
                    at: day),
            ],
            refunds: [
                AdminOrderPage.Refund(
                    amount: cap, status: .succeeded, lines: [.init(title: markup, quantity: 1, restock: true)],
                    reason: "Arrived damaged", note: "<b>stones</b> everywhere", by: "owner@onlinestore.test", at: day),
                AdminOrderPage.Refund(
                    amount: cap, status: .pending, kind: .goodwill, reason: "Goodwill", by: "owner@onlinestore.test",
                    at: day),
            ],
            actions: .allowed(fulfilment: .unfulfilled, remaining: price, cancelIdempotencyKey: "cancel-key-1"))
    }

    static var refundPage: AdminRefundPage {
        var form = AdminRefundForm(
            quantities: [0: "5"], restock: [0], amount: markup, reason: .damaged, note: markup,
            errors: [.quantity(0): "Only 1 left to refund: choose from 0 to 1.", .amount: "An amount above zero."])
        form.shipping = true
        return AdminRefundPage(
            orderID: "ord_01JTESTORDER000000000000000",
            lines: [
                AdminRefundPage.Line(position: 0, title: markup, quantity: 2, refundable: 1, paid: price),
                AdminRefundPage.Line(position: 1, title: "Cap", quantity: 1, refundable: 0, paid: price),
            ],
            refundableShipping: Money(minorUnits: 4_95, currency: .eur), paid: price, refunded: .zero(.eur),
            remaining: price, form: form)
    }

    static var refundReview: AdminRefundReview {
        AdminRefundReview(
            orderID: "ord_01JTESTORDER000000000000000",
            form: AdminRefundForm(quantities: [0: "1"], restock: [0], reason: .damaged, note: markup),
            lines: [AdminRefundReview.Line(title: markup, quantity: 1, amount: price, restock: true)],
            shipping: .zero(.eur), fee: .zero(.eur), goodwill: nil, amount: price, reason: .damaged, note: markup,
            paymentMethod: "Card (Visa)", remainingAfter: .zero(.eur), idempotencyKey: "refund-key-1")
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

    @Test("every cell of a table carries its column's heading, and a column of numbers its alignment")
    func cellsCarryTheirColumnsHeading() throws {
        let html = AdminPages.order(Self.order, context: Self.owner).renderString()
        // The items: the row's heading, then three numbers.
        #expect(html.contains(#"<th scope="row" data-label="Item">&lt;script&gt;"#))
        #expect(html.contains(#"<td class="number" data-label="Unit price">€8.50</td>"#))
        #expect(html.contains(#"<td class="number" data-label="Quantity">2</td>"#))
        #expect(html.contains(#"<td class="number" data-label="Line total">€19.90</td>"#))
        // The refunds: a number first, a class of the cell's own beside the heading.
        #expect(html.contains(#"<td class="number" data-label="Amount">€8.50</td>"#))
        #expect(html.contains(#"<td class="prose" data-label="Reason">Arrived damaged"#))
        // Every data table of every page (the totals' tables of labelled amounts are not).
        var checked = 0
        for (name, document) in Self.pages {
            let tables = document.renderString().components(separatedBy: "<table").dropFirst()
            for table in tables where table.hasPrefix(#" id=""#) && table.contains(#"class="data"#) {
                let body = table.components(separatedBy: "</table>")[0]
                let cells = body.components(separatedBy: "<td").count - 1
                let headings = body.components(separatedBy: #"<th scope="row""#).count - 1
                let labelled = body.components(separatedBy: " data-label=").count - 1
                #expect(cells > 0, "\(name)")
                checked += 1
                #expect(
                    labelled == cells + headings,
                    "\(name): \(cells) cells, \(headings) row headings, \(labelled) labelled")
            }
        }
        #expect(checked >= 5, "\(checked) tables")
    }

    @Test("the audit log words every action the store records, each differently; a code it does not know as it is")
    func auditActionsInWords() {
        let words = AuditAction.allCases.map(\.words)
        #expect(Set(words).count == AuditAction.allCases.count)
        for action in AuditAction.allCases {
            #expect(AdminAuditPage.describe(action: action.rawValue) == action.words)
            #expect(action.words != action.rawValue && !action.words.contains("."), "\(action)")
        }
        #expect(AdminAuditPage.describe(action: "order.refunded") == "Refunded")
        #expect(AdminAuditPage.describe(action: "order.fulfilment") == "Changed an order's fulfilment status")
        #expect(AdminAuditPage.describe(action: "report.sent") == "report.sent")
    }

    @Test("the order page: its refunds line by line, the Refund link with the permission, Cancel order with its key")
    func orderPage() {
        let html = AdminPages.order(Self.order, context: Self.owner).renderString()
        #expect(html.contains(#"href="/admin/orders/ord_01JTESTORDER000000000000000/refund""#))
        #expect(html.contains(#"action="/admin/orders/ord_01JTESTORDER000000000000000/cancel""#))
        #expect(html.contains(#"name="idempotency_key" value="cancel-key-1""#))
        #expect(html.contains("1 × &lt;script&gt;alert(1)&lt;/script&gt; gaiters (restocked)"))
        #expect(html.contains("&lt;b&gt;stones&lt;/b&gt; everywhere"))
        #expect(html.contains("Refunds pending"))
        #expect(html.contains("Refund of €8.50 asked for"))
        #expect(html.contains("Refund refused by the payment provider (refund_refused)"))
        var shipped = Self.order
        shipped.fulfilment = .shipped
        shipped.actions = .allowed(
            fulfilment: .shipped, remaining: Self.price, cancelIdempotencyKey: "k", mayRefund: false)
        let noRefund = AdminPages.order(shipped, context: Self.owner).renderString()
        #expect(!noRefund.contains("/refund\""))
        #expect(!noRefund.contains("Cancel order"))
    }

    @Test("the refund form: as typed with each problem beside its field; the review posts what it showed with its key")
    func refundPages() {
        let form = AdminPages.refund(Self.refundPage, context: Self.owner).renderString()
        #expect(
            form.contains(#"<form method="get" action="/admin/orders/ord_01JTESTORDER000000000000000/refund/review""#))
        #expect(form.contains(#"name="quantity_0" value="5""#))
        #expect(form.contains(#"aria-describedby="quantity-0-hint quantity-0-error" aria-invalid="true""#))
        #expect(form.contains(##"<a href="#quantity-0">Only 1 left to refund: choose from 0 to 1.</a>"##))
        #expect(form.contains(#"name="restock_0" value="on" checked"#))
        #expect(!form.contains(#"name="quantity_1""#), "a line refunded in full has nothing to choose")
        #expect(form.contains("Refund shipping (€4.95)"))
        #expect(form.contains(#"value="damaged" selected"#))
        #expect(!form.contains(#"value="cancelled""#), "cancelling is Cancel order's")
        let review = AdminPages.refundReview(Self.refundReview, context: Self.owner).renderString()
        #expect(review.contains("Refund €19.90</button>"))
        #expect(review.contains(#"name="idempotency_key" value="refund-key-1""#))
        #expect(review.contains(#"name="quantity_0" value="1""#))
        #expect(review.contains(#"name="reason" value="damaged""#))
        #expect(
            review.contains(
                #"href="/admin/orders/ord_01JTESTORDER000000000000000/refund?quantity_0=1&amp;restock_0=on"#))
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
