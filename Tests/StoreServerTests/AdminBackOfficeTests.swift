import AdminViews
import CatalogFiles
import CheckoutKit
import Foundation
import StoreAPI
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import Testing

@testable import StoreDatabase
@testable import StoreServer

extension TestStore {
    /// Adds a promotion through the back office's API as `token`.
    func createPromotion(_ request: NewPromotionRequest, token: String) async throws -> Reply {
        try await send(AdminEndpoints.createPromotion, body: request, token: token)
    }

    /// Signs the demo customer `email` in, fills their basket with `quantity` of product `product`
    /// and pays for it by card; what the order charged (the card fee included).
    @discardableResult
    func placeOrder(
        as email: String, password: String, product: Int = 1, quantity: Int = 1
    ) async throws -> Money {
        let token = try await login(email, password).decode(LoginResponse.self).token
        _ = try await setQuantity(quantity, of: product, token: token)
        let total = try await basket(token).total
        let paid = try await checkout(
            token: token, key: UUID().uuidString, method: visa, total: total.amountText)
        guard paid.status == 201 else { throw TestError("checkout answered \(paid.status): \(paid.text)") }
        return try paid.decode(OrderBody.self).total
    }

    /// How many lines the audit log has, read from the database.
    func auditLineCount() async throws -> Int {
        try await database.sql.read {
            try $0.queryFirst("SELECT COUNT(*) AS n FROM audit_log")?.decode("n", as: Int.self) ?? -1
        }
    }

    /// The active owners' ids, read from the database.
    func activeOwners() async throws -> [Int64] {
        try await database.sql.read {
            try $0.query("SELECT id FROM staff WHERE role = 'owner' AND removed_at IS NULL ORDER BY id").map {
                try $0.decode("id", as: Int64.self)
            }
        }
    }
}

/// The back office's promotions, customers, dashboard, audit log and staff removal through the JSON
/// API (docs/BEHAVIOUR.md §13.9–§13.13), on SQLite and PostgreSQL.
@Suite("Back office: promotions, customers, dashboard, audit log, staff") struct AdminBackOfficeTests {
    // MARK: Promotions

    @Test(
        "promotions are listed with their use counts; a new one is normalised, checked by field, audited",
        arguments: Backend.allCases)
    func creatingPromotions(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let catalog = try await store.staffToken(try await store.addStaff(role: .catalog), "a long password")
            let listed = try await store.send(AdminEndpoints.promotions, token: catalog)
            #expect(listed.status == 200)
            let seeded = try listed.decode([AdminPromotionBody].self)
            #expect(seeded.map(\.code) == ["BIG20", "GIFT25", "RUN10"])
            #expect(seeded.allSatisfy { $0.status == "active" && $0.timesUsed == 0 && $0.disabledAt == nil })
            #expect(seeded.first { $0.code == "GIFT25" }?.amountOff == eur(25_00))

            let created = try await store.createPromotion(
                NewPromotionRequest(code: "  spring-15 ", kind: "percent_off", percentOff: 15), token: catalog)
            #expect(created.status == 201)
            let spring = try created.decode(AdminPromotionBody.self)
            #expect(spring.code == "SPRING-15")
            #expect(spring.kind == .percentOff && spring.percentOff == 15 && spring.amountOff == nil)
            #expect(spring.minimumSubtotal == eur(0))
            #expect(spring.status == "active" && spring.timesUsed == 0)
            let entry = try #require(try await store.database.audit.entries().first)
            #expect(entry.action == "promotion.created" && entry.subject == "promotion:SPRING-15")
            #expect(entry.actor.hasPrefix("catalog-"))
            #expect(entry.after?.contains(#""percent_off":"15""#) == true)

            let later = Date().addingTimeInterval(86_400)
            let scheduled = try await store.createPromotion(
                NewPromotionRequest(
                    code: "XMAS5", kind: "amount_off", amountOff: eur(5_00), minimumSubtotal: eur(30_00),
                    startsAt: StoreJSON.timestamp(later), endsAt: "2099-01-01T00:00:00Z", usageLimit: 100),
                token: catalog)
            #expect(scheduled.status == 201)
            let xmas = try scheduled.decode(AdminPromotionBody.self)
            #expect(xmas.status == "scheduled" && xmas.usageLimit == 100 && xmas.amountOff == eur(5_00))
            #expect(xmas.endsAt == "2099-01-01T00:00:00.000Z")
            // A scheduled code is not one a shopper can use yet.
            let shopper = try await store.newSession()
            let early = try await store.send(
                Endpoints.applyPromotion, body: ApplyPromotionRequest(code: "xmas5"), token: shopper)
            #expect(early.errorType == "invalid_promotion")

            let auditLines = try await store.auditLineCount()
            for (bad, field) in [
                (NewPromotionRequest(code: "has space", kind: "percent_off", percentOff: 10), "code"),
                (NewPromotionRequest(code: "", kind: "percent_off", percentOff: 10), "code"),
                (
                    NewPromotionRequest(code: String(repeating: "A", count: 33), kind: "percent_off", percentOff: 10),
                    "code"
                ),
                (NewPromotionRequest(code: "ÄPFEL", kind: "percent_off", percentOff: 10), "code"),
                (NewPromotionRequest(code: "OK1", kind: "half_off", percentOff: 10), "kind"),
                (NewPromotionRequest(code: "OK1", kind: "percent_off", percentOff: 0), "percent_off"),
                (NewPromotionRequest(code: "OK1", kind: "percent_off", percentOff: 101), "percent_off"),
                (NewPromotionRequest(code: "OK1", kind: "percent_off"), "percent_off"),
                (NewPromotionRequest(code: "OK1", kind: "percent_off", percentOff: 5, amountOff: eur(1)), "amount_off"),
                (NewPromotionRequest(code: "OK1", kind: "amount_off", amountOff: eur(0)), "amount_off"),
                (
                    NewPromotionRequest(
                        code: "OK1", kind: "amount_off", amountOff: Money(minorUnits: 500, currency: .usd)),
                    "amount_off"
                ),
                (
                    NewPromotionRequest(
                        code: "OK1", kind: "percent_off", percentOff: 5,
                        minimumSubtotal: Money(minorUnits: 500, currency: .usd)), "minimum_subtotal"
                ),
                (
                    NewPromotionRequest(
                        code: "OK1", kind: "percent_off", percentOff: 5, startsAt: "2030-01-02T00:00:00Z",
                        endsAt: "2030-01-01T00:00:00Z"), "ends_at"
                ),
                (
                    NewPromotionRequest(
                        code: "OK1", kind: "percent_off", percentOff: 5, startsAt: "2030-01-01T00:00:00Z",
                        endsAt: "2030-01-01T00:00:00Z"), "ends_at"
                ),
                (
                    NewPromotionRequest(code: "OK1", kind: "percent_off", percentOff: 5, startsAt: "tomorrow"),
                    "starts_at"
                ),
                (NewPromotionRequest(code: "OK1", kind: "percent_off", percentOff: 5, usageLimit: 0), "usage_limit"),
            ] {
                let reply = try await store.createPromotion(bad, token: catalog)
                #expect(reply.status == 422, "\(bad)")
                #expect(reply.errorType == "invalid_promotion", "\(bad)")
                #expect(try reply.decode(ErrorBody.self).error.field == field, "\(bad)")
            }
            for taken in ["run10", " SPRING-15 "] {
                let reply = try await store.createPromotion(
                    NewPromotionRequest(code: taken, kind: "amount_off", amountOff: eur(1_00)), token: catalog)
                #expect(reply.status == 409)
                #expect(reply.errorType == "promotion_exists")
            }
            // Nothing refused was written: no promotion, no audit line.
            #expect(try await store.auditLineCount() == auditLines)
            let after = try await store.send(AdminEndpoints.promotions, token: catalog).decode(
                [AdminPromotionBody].self)
            #expect(after.map(\.code) == ["BIG20", "GIFT25", "RUN10", "SPRING-15", "XMAS5"])
            #expect(after.first { $0.code == "RUN10" } == seeded.first { $0.code == "RUN10" })
        }
    }

    @Test(
        "a disabled code stops applying at once: the basket gets its notice, a checkout gets no discount",
        arguments: Backend.allCases)
    func disablingPromotions(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            let shopper = try await store.workedCaseShopper()
            let before = try await store.basket(shopper)
            #expect(before.discount == eur(5_00) && before.total == eur(45_00))

            let disabled = try await store.send(AdminEndpoints.disablePromotion, "run10", token: owner)
            #expect(disabled.status == 200)
            let body = try disabled.decode(AdminPromotionBody.self)
            #expect(body.code == "RUN10" && body.status == "disabled")
            let disabledAt = try #require(body.disabledAt)

            let basket = try await store.basket(shopper)
            #expect(basket.discount == eur(0))
            #expect(basket.total == eur(50_00))
            #expect(basket.promotion == nil)
            #expect(basket.promoNotice == "The code RUN10 can no longer be used.")
            // The total the shopper saw before is not charged; the new one is, with no discount.
            let stale = try await store.checkout(token: shopper, key: "k1", method: visa, total: "45.00")
            #expect(stale.status == 409)
            #expect(stale.errorType == "price_changed")
            let paid = try await store.checkout(token: shopper, key: "k2", method: visa, total: "50.00")
            #expect(paid.status == 201)
            let order = try paid.decode(OrderBody.self)
            #expect(order.discount == eur(0))
            #expect(order.promotion == nil)

            // No one can apply it again, and no payment can count a use of it, even one priced before.
            let other = try await store.newSession()
            let applied = try await store.send(
                Endpoints.applyPromotion, body: ApplyPromotionRequest(code: "RUN10"), token: other)
            #expect(applied.status == 422)
            #expect(applied.errorType == "invalid_promotion")
            let run10 = try #require(PromotionCode("RUN10"))
            let counted = try await store.database.sql.write { connection in
                try connection.query(PaymentRepository.promotionUse(run10, now: Date())).count
            }
            #expect(counted == 0)

            // Disabling it again answers the same and changes nothing.
            let again = try await store.send(AdminEndpoints.disablePromotion, "RUN10", token: owner)
            #expect(again.status == 200)
            #expect(try again.decode(AdminPromotionBody.self).disabledAt == disabledAt)
            let lines = try await store.database.audit.entries().filter { $0.action == "promotion.disabled" }
            #expect(lines.count == 1)
            #expect(lines.first?.subject == "promotion:RUN10")
            #expect(lines.first?.actor == "owner@onlinestore.test")
            let listed = try await store.send(AdminEndpoints.promotions, token: owner).decode([AdminPromotionBody].self)
            #expect(listed.first { $0.code == "RUN10" }?.timesUsed == 0)
            #expect(listed.first { $0.code == "RUN10" }?.status == "disabled")

            let unknown = try await store.send(AdminEndpoints.disablePromotion, "NOPE", token: owner)
            #expect(unknown.status == 404)
            #expect(try await store.send(AdminEndpoints.disablePromotion, "no such", token: owner).status == 404)
        }
    }

    @Test("the promotion rules check each field and give every problem at once")
    func promotionRules() throws {
        let draft = PromotionDraft(
            code: "bad code", offer: .percent(0), minimumSubtotal: eur(-1), startsAt: Date(timeIntervalSince1970: 10),
            endsAt: Date(timeIntervalSince1970: 5), usageLimit: 0)
        guard case .failure(let error) = PromotionRules.promotion(draft, currency: .eur) else {
            Issue.record("a draft with every field wrong was accepted")
            return
        }
        #expect(error.problems.map(\.field) == [.code, .value, .minimumSubtotal, .endsAt, .usageLimit])
        let good = try PromotionRules.promotion(
            PromotionDraft(code: " summer_24 ", offer: .amount(eur(2_50)), usageLimit: 3), currency: .eur
        ).get()
        #expect(good.code.rawValue == "SUMMER_24")
        #expect(good.kind == .amountOff(eur(2_50)) && good.minimumSubtotal == eur(0) && good.usageLimit == 3)
        #expect(try PromotionRules.percent(" 15 ").get() == .percent(15))
        #expect(try PromotionRules.amount("5.00", currency: .eur).get() == .amount(eur(5_00)))
        #expect(try PromotionRules.usageLimit("").get() == nil)
        #expect(try PromotionRules.minimumSubtotal(" ", currency: .eur).get() == nil)
        #expect(throws: PromotionFieldProblem.self) { try PromotionRules.amount("5,00", currency: .eur).get() }
        #expect(throws: PromotionFieldProblem.self) { try PromotionRules.code("4242424242424242").get() }
        let disabled = Promotion(
            code: good.code, kind: good.kind, minimumSubtotal: good.minimumSubtotal, disabledAt: Date())
        #expect(disabled.availability(at: Date()) == .disabled)
    }

    // MARK: Customers

    @Test(
        "customers with their tier, order count and spending; a customer's orders newest first; reads write nothing",
        arguments: Backend.allCases)
    func customers(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let orders = try await store.staffToken(try await store.addStaff(role: .orders), "a long password")
            let first = try await store.placeOrder(as: "pro@onlinestore.test", password: "pro-demo-password")
            let second = try await store.placeOrder(
                as: "pro@onlinestore.test", password: "pro-demo-password", product: 2, quantity: 2)
            let auditLines = try await store.auditLineCount()

            let listed = try await store.send(AdminEndpoints.customers, token: orders)
            #expect(listed.status == 200)
            let list = try listed.decode(AdminCustomerList.self)
            #expect(list.total == 2 && list.offset == 0 && list.limit == 50)
            let pro = try #require(list.customers.first { $0.email == "pro@onlinestore.test" })
            #expect(pro.name == "Robin Runner" && pro.tier == .pro && pro.orderCount == 2)
            let spent = try first + second
            #expect(pro.totalSpent == spent)
            let free = try #require(list.customers.first { $0.email == "free@onlinestore.test" })
            #expect(free.tier == .free && free.orderCount == 0 && free.totalSpent == eur(0))

            let searched = try await store.send("GET", "/api/admin/customers?q=STRIDE", token: orders)
            #expect(try searched.decode(AdminCustomerList.self).customers.map(\.email) == ["free@onlinestore.test"])
            let none = try await store.send("GET", "/api/admin/customers?q=%25", token: orders)
            #expect(try none.decode(AdminCustomerList.self).total == 0)
            let paged = try await store.send("GET", "/api/admin/customers?offset=1&limit=1", token: orders)
            #expect(try paged.decode(AdminCustomerList.self).customers.map(\.id) == [free.id])
            #expect(try await store.send("GET", "/api/admin/customers?limit=0", token: orders).status == 400)
            #expect(try await store.send("GET", "/api/admin/customers?limit=201", token: orders).status == 400)

            let detail = try await store.send(AdminEndpoints.customer, String(pro.id), token: orders)
            #expect(detail.status == 200)
            let page = try detail.decode(AdminCustomerDetail.self)
            #expect(page.customer == pro)
            #expect(page.total == 2)
            #expect(page.orders.map(\.total) == [second, first])
            #expect(page.orders.allSatisfy { $0.fulfilmentStatus == "unfulfilled" && $0.paymentStatus == "paid" })
            #expect(page.orders.map(\.createdAt) == page.orders.map(\.createdAt).sorted(by: >))
            let older = try await store.send(
                "GET", AdminEndpoints.customer.path(String(pro.id)) + "?offset=1&limit=1", token: orders)
            #expect(try older.decode(AdminCustomerDetail.self).orders.map(\.id) == [page.orders[1].id])

            #expect(try await store.send(AdminEndpoints.customer, "999999", token: orders).status == 404)
            #expect(try await store.send(AdminEndpoints.customer, "abc", token: orders).status == 404)
            #expect(try await store.auditLineCount() == auditLines)

            // A refund shows on the customer's orders, in the API and on their page, as the order
            // list says it.
            let goodwill = RefundRequestBody(amount: eur(100), reason: "goodwill")
            #expect(try await store.refund(page.orders[1].id, goodwill, token: orders).status == 201)
            let refunded = try await store.send(AdminEndpoints.customer, String(pro.id), token: orders)
                .decode(AdminCustomerDetail.self)
            #expect(refunded.orders.map(\.paymentStatus) == ["paid", "partially_refunded"])
            let browser = TestBrowser(base: store.base)
            try await browser.signInToBackOffice()
            let html = try await browser.get(AdminPaths.customer(pro.id)).text
            #expect(html.contains("Partially refunded"))
            let partly = try await store.send(
                "GET", "/api/admin/orders?payment_status=partially_refunded", token: orders)
            #expect(try partly.decode(AdminOrderList.self).orders.map(\.id) == [page.orders[1].id])
        }
    }

    // MARK: Dashboard

    @Test(
        "the dashboard: today's orders and revenue, orders to pack, products low on stock or sold out",
        arguments: Backend.allCases)
    func dashboard(backend: Backend) async throws {
        // Noon UTC today, so that every order of the test falls in the same UTC day.
        let time = MovableClock()
        let now = Date()
        time.advance(by: Dashboard.utcDay(containing: now).start.addingTimeInterval(12 * 3_600).timeIntervalSince(now))
        try await TestStore.with(backend, clock: time.clock) { store in
            let owner = try await store.ownerToken()
            let orders = try await store.staffToken(try await store.addStaff(role: .orders), "a long password")
            let empty = try await store.send(AdminEndpoints.dashboard, token: orders)
            #expect(empty.status == 200)
            let start = try empty.decode(DashboardBody.self)
            #expect(start.ordersToday == 0 && start.revenueToday == eur(0) && start.ordersToPack == 0)
            #expect(start.lowStock.isEmpty && start.soldOut.isEmpty)
            #expect(start.lowStockThreshold == 5 && start.lowStockThreshold == StockLevel.lowStockThreshold)
            #expect(
                start.day
                    == Dashboard.utcDay(containing: time.clock.now()).start.formatted(.iso8601.year().month().day()))

            // Yesterday's order counts for packing, not for today.
            time.advance(by: -86_400)
            _ = try await store.placeOrder(as: "free@onlinestore.test", password: "free-demo-password")
            time.advance(by: 86_400)
            let total = try await store.placeOrder(as: "pro@onlinestore.test", password: "pro-demo-password")

            // Product 11 down to 5 units, product 12 to 1, product 13 to 0, product 14 to 0 and archived.
            for (product, target) in [(11, 5), (12, 1), (13, 0), (14, 0)] {
                let stock = try await store.stock(Int64(product))
                let moved = try await store.adjustStock(
                    Int64(product), by: target - stock, reason: "counted", token: owner)
                #expect(moved.status == 201)
            }
            let archived = try await store.send(AdminEndpoints.product, "14", token: owner).decode(
                AdminProductBody.self)
            _ = try await store.send(
                AdminEndpoints.changeProduct, "14",
                body: ProductChangeRequest(version: archived.version, active: false),
                token: owner)
            // Six units is not low.
            let six = try await store.stock(15)
            _ = try await store.adjustStock(15, by: 6 - six, reason: "counted", token: owner)

            let figures = try await store.send(AdminEndpoints.dashboard, token: orders).decode(DashboardBody.self)
            #expect(figures.ordersToday == 1)
            #expect(figures.revenueToday == total)
            #expect(figures.ordersToPack == 2)
            #expect(figures.lowStock.map(\.id) == [12, 11])
            #expect(figures.lowStock.map(\.stock) == [1, 5])
            #expect(figures.lowStockCount == 2)
            #expect(figures.soldOut.map(\.id) == [13])
            #expect(figures.soldOutCount == 1)
            let product = try await store.send(AdminEndpoints.product, "12", token: owner).decode(AdminProductBody.self)
            #expect(figures.lowStock.first == StockAlertBody(id: 12, sku: product.sku, title: product.title, stock: 1))
        }
    }

    // MARK: Audit log

    @Test(
        "the audit log newest first: an owner reads everyone's lines, anyone else only their own; reading writes nothing",
        arguments: Backend.allCases)
    func auditLog(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            let catalogEmail = try await store.addStaff(role: .catalog)
            let catalog = try await store.staffToken(catalogEmail, "a long password")
            _ = try await store.createPromotion(
                NewPromotionRequest(code: "MINE", kind: "percent_off", percentOff: 5), token: catalog)
            _ = try await store.send(AdminEndpoints.disablePromotion, "MINE", token: owner)
            let lines = try await store.auditLineCount()

            let everyone = try await store.send("GET", "/api/admin/audit?limit=200", token: owner)
            #expect(everyone.status == 200)
            let all = try everyone.decode([AuditEntryBody].self)
            #expect(all.count == lines)
            #expect(all.map(\.id) == all.map(\.id).sorted(by: >))
            #expect(all.prefix(2).map(\.action) == ["promotion.disabled", "promotion.created"])
            #expect(all[1].staff == catalogEmail && all[1].subject == "promotion:MINE")
            #expect(all[0].before == #"{"disabled":"false"}"# && all[0].after == #"{"disabled":"true"}"#)
            #expect(Set(all.map(\.staff)).isSuperset(of: ["owner@onlinestore.test", catalogEmail, "demo data"]))

            let own = try await store.send(AdminEndpoints.audit, token: catalog).decode([AuditEntryBody].self)
            #expect(!own.isEmpty)
            #expect(own.allSatisfy { $0.staff == catalogEmail })
            #expect(own.map(\.action).contains("promotion.created"))
            #expect(own.map(\.id) == all.filter { $0.staff == catalogEmail }.map(\.id))

            // Paging: `before` the last id seen gives the next lines, none twice.
            let firstPage = try await store.send("GET", "/api/admin/audit?limit=2", token: owner)
                .decode([AuditEntryBody].self)
            let last = try #require(firstPage.last).id
            let nextPage = try await store.send("GET", "/api/admin/audit?limit=2&before=\(last)", token: owner)
                .decode([AuditEntryBody].self)
            #expect((firstPage + nextPage).map(\.id) == Array(all.prefix(4)).map(\.id))
            #expect(try await store.send("GET", "/api/admin/audit?limit=0", token: owner).status == 400)
            #expect(try await store.send("GET", "/api/admin/audit?before=x", token: owner).status == 400)

            // Reading the log — as JSON or CSV — writes nothing to it.
            _ = try await store.send(AdminEndpoints.auditCSV, token: owner)
            #expect(try await store.auditLineCount() == lines)
        }
    }

    @Test(
        "the audit log as CSV: the same lines, RFC 4180 quoting, no cell a spreadsheet would run as a formula",
        arguments: Backend.allCases)
    func auditCSV(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            // An email may start like a formula; it is written in the audit log as it is.
            let added = try await store.send(
                AdminEndpoints.addStaff,
                body: NewStaffRequest(email: "=cmd@shop.test", role: "catalog", password: "a long password"),
                token: owner)
            #expect(added.status == 201)
            let tricky = try await store.staffToken("=cmd@shop.test", "a long password")
            _ = try await store.createProduct(sku: "Q-1", title: #"Cap, "quoted""#, token: tricky)
            _ = try await store.createPromotion(
                NewPromotionRequest(code: "-5", kind: "amount_off", amountOff: eur(5_00)), token: tricky)

            let reply = try await store.send(AdminEndpoints.auditCSV, token: owner)
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "text/csv; charset=utf-8")
            #expect(reply.header("Content-Disposition") == #"attachment; filename="audit-log.csv""#)
            #expect(reply.header("Cache-Control") == "no-store")
            #expect(Array(reply.body.prefix(3)) == [0xEF, 0xBB, 0xBF])
            let records = try CSVText.records(String(decoding: reply.body.dropFirst(3), as: UTF8.self))
            #expect(records.first == ["id", "at", "staff", "action", "subject", "before", "after"])
            let rows = records.dropFirst()
            let json = try await store.send("GET", "/api/admin/audit?limit=200", token: owner)
                .decode([AuditEntryBody].self)
            #expect(rows.count == json.count)
            for (row, entry) in zip(rows, json) {
                #expect(
                    row.map(SpreadsheetCSV.unprotected) == [
                        String(entry.id), entry.at, entry.staff, entry.action, entry.subject, entry.before ?? "",
                        entry.after ?? "",
                    ])
                for cell in row {
                    let first = cell.unicodeScalars.first
                    #expect(first.map { $0 == "'" || !SpreadsheetCSV.formulaStarts.contains($0) } ?? true, "\(cell)")
                }
            }
            #expect(rows.contains { $0[2] == "'=cmd@shop.test" && $0[3] == "product.created" })
            #expect(rows.contains { $0[3] == "staff.added" && $0[5] == "" && $0[6] == "'=cmd@shop.test (catalog)" })
            #expect(rows.contains { $0[4] == "promotion:-5" })
            #expect(rows.contains { $0[6].contains(#""title":"Cap, \"quoted\"""#) })
            #expect(String(decoding: reply.body, as: UTF8.self).contains("\r\n"))

            // Anyone else exports their own lines only.
            let own = try await store.send(AdminEndpoints.auditCSV, token: tricky)
            let ownRows = try CSVText.records(String(decoding: own.body.dropFirst(3), as: UTF8.self)).dropFirst()
            #expect(!ownRows.isEmpty)
            #expect(ownRows.allSatisfy { $0[2] == "'=cmd@shop.test" })
        }
    }

    @Test("the audit log's CSV protects what someone typed by the catalog file's rule, and gives it back exactly")
    func formulaProtection() {
        let entry = AuditEntry(
            id: 7, at: Date(timeIntervalSince1970: 0), actor: "=cmd@shop.test", staffID: nil, action: "product.updated",
            subject: "-product:3", before: "'quoted", after: "{\"title\":\"=HYPERLINK()\"}")
        var csv = SpreadsheetCSV(columns: AuditCSV.columns)
        AuditCSV.append(entry, to: &csv)
        let text = String(decoding: csv.bytes.dropFirst(3), as: UTF8.self)
        #expect(
            text == "id,at,staff,action,subject,before,after\r\n"
                + "7,1970-01-01T00:00:00.000Z,'=cmd@shop.test,product.updated,'-product:3,''quoted,"
                + "\"{\"\"title\"\":\"\"=HYPERLINK()\"\"}\"\r\n")
    }

    @Test("no code in Sources changes or removes audit lines: the log stays append-only")
    func auditLogIsAppendOnlyInSource() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        let forbidden = try Regex(
            #"(?i)(UPDATE\s+audit_log|DELETE\s+FROM\s+audit_log|TRUNCATE\s+(TABLE\s+)?audit_log)"#)
        var swiftFiles = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            swiftFiles += 1
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains(forbidden), "\(file.path) changes or removes audit lines")
        }
        #expect(swiftFiles > 100)
    }

    // MARK: Staff

    @Test(
        "removing a member of staff: kept for the log, signed out at once, cannot sign in; the last owner stays",
        arguments: Backend.allCases)
    func removingStaff(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            let email = try await store.addStaff(role: .catalog)
            let member = try await store.staffToken(email, "a long password")
            #expect(try await store.send(AdminEndpoints.promotions, token: member).status == 200)
            let list = try await store.send(AdminEndpoints.staff, token: owner).decode([StaffMemberBody].self)
            #expect(list.map(\.email) == ["owner@onlinestore.test", email])
            #expect(list.allSatisfy { $0.active && $0.removedAt == nil })
            let id = try #require(list.last).id

            let removed = try await store.send(AdminEndpoints.removeStaff, String(id), token: owner)
            #expect(removed.status == 200)
            let body = try removed.decode(StaffMemberBody.self)
            #expect(body.email == email && !body.active && body.removedAt != nil)
            // Their session ends at once, and their password opens nothing any more.
            let refused = try await store.send(AdminEndpoints.promotions, token: member)
            #expect(refused.status == 401)
            let signIn = try await store.send(
                AdminEndpoints.createSession, body: StaffSignInRequest(email: email, password: "a long password"))
            #expect(signIn.status == 401)
            #expect(signIn.errorType == "invalid_credentials")
            // Kept in the list, for the audit log names them.
            let after = try await store.send(AdminEndpoints.staff, token: owner).decode([StaffMemberBody].self)
            #expect(after.last == body)
            let audit = try await store.database.audit.entries().filter { $0.action == "staff.removed" }
            #expect(audit.count == 1)
            #expect(audit.first?.subject == "staff:\(id)" && audit.first?.before == "\(email) (catalog)")
            #expect(audit.first?.actor == "owner@onlinestore.test")

            // Removing them again changes nothing.
            let again = try await store.send(AdminEndpoints.removeStaff, String(id), token: owner)
            #expect(again.status == 200)
            #expect(try again.decode(StaffMemberBody.self) == body)
            #expect(try await store.database.audit.entries().filter { $0.action == "staff.removed" }.count == 1)

            // The shop's only owner cannot remove themselves.
            let ownerID = try #require(after.first).id
            let last = try await store.send(AdminEndpoints.removeStaff, String(ownerID), token: owner)
            #expect(last.status == 409)
            #expect(last.errorType == "last_owner")
            #expect(try await store.activeOwners() == [ownerID])
            #expect(try await store.send(AdminEndpoints.removeStaff, "999999", token: owner).status == 404)
        }
    }

    @Test(
        "two owners removing each other at once leave one owner, whatever the backend",
        arguments: Backend.allCases)
    func ownersRemovingEachOther(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            var survivor = (
                token: try await store.ownerToken(),
                id: try #require(try await store.activeOwners().first)
            )
            for round in 0..<5 {
                let email = "owner-\(round)@shop.test"
                let added = try await store.send(
                    AdminEndpoints.addStaff,
                    body: NewStaffRequest(email: email, role: "owner", password: "a long password"),
                    token: survivor.token)
                let newcomer = (
                    token: try await store.staffToken(email, "a long password"),
                    id: try added.decode(StaffMemberBody.self).id
                )
                #expect(try await store.activeOwners().count == 2)
                let (ownerToken, ownerID) = survivor
                async let first = store.send(AdminEndpoints.removeStaff, String(newcomer.id), token: ownerToken)
                async let second = store.send(AdminEndpoints.removeStaff, String(ownerID), token: newcomer.token)
                let replies = try await [first, second]
                let owners = try await store.activeOwners()
                #expect(owners.count == 1, "round \(round)")
                #expect(replies.filter { $0.status == 200 }.count == 1, "round \(round): \(replies.map(\.status))")
                // The other was refused: the last owner (409), or already removed when it arrived (401).
                #expect(replies.allSatisfy { [200, 401, 409].contains($0.status) }, "round \(round)")
                #expect(
                    try await store.database.audit.entries().filter { $0.action == "staff.removed" }.count == round + 1)
                survivor = owners.first == newcomer.id ? newcomer : survivor
            }
        }
    }
}

/// Reads CSV text as RFC 4180 has it: fields split by commas, records by CRLF, a quoted field may
/// hold commas, line breaks and doubled quotes.
enum CSVText {
    static func records(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar?
        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            return scalars.next()
        }
        while let scalar = next() {
            if quoted {
                if scalar == "\"" {
                    let following = next()
                    if following == "\"" {
                        field.unicodeScalars.append("\"")
                    } else {
                        quoted = false
                        pending = following
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty:
                quoted = true
            case ",":
                record.append(field)
                field = ""
            case "\r":
                guard next() == "\n" else { throw TestError("a CR without LF outside quotes") }
                record.append(field)
                records.append(record)
                record = []
                field = ""
            default:
                field.unicodeScalars.append(scalar)
            }
        }
        guard !quoted, field.isEmpty, record.isEmpty else { throw TestError("the CSV does not end with a record") }
        return records
    }
}
