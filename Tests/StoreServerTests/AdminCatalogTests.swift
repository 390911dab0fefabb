import CheckoutKit
import Foundation
import StoreAPI
import StoreDatabase
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import Testing

@testable import StoreServer

extension TestStore {
    /// Adds a product through the back office's API as `token`; the product.
    func createProduct(
        sku: String, title: String = "Trail gaiters", category: String = "apparel", price: Int64 = 19_90,
        active: Bool? = nil, token: String
    ) async throws -> AdminProductBody {
        let reply = try await send(
            AdminEndpoints.createProduct,
            body: NewProductRequest(
                sku: sku, title: title, description: "Keep stones out of your shoes.", category: category,
                price: eur(price), active: active),
            token: token)
        guard reply.status == 201 else { throw TestError("creating a product answered \(reply.status): \(reply.text)") }
        return try reply.decode(AdminProductBody.self)
    }

    /// Adjusts a product's stock through the back office's API as `token`.
    func adjustStock(
        _ product: Int64, by change: Int, reason: String = "received", note: String? = nil, token: String
    )
        async throws -> Reply
    {
        try await send(
            AdminEndpoints.adjustStock, String(product),
            body: StockAdjustmentRequest(change: change, reason: reason, note: note), token: token)
    }

    /// The sum of a product's stock ledger, read from the database.
    func ledgerSum(_ product: Int64) async throws -> Int {
        try await database.sql.read {
            try $0.queryFirst(
                "SELECT CAST(COALESCE(SUM(change_units), 0) AS BIGINT) AS n FROM stock_movements WHERE product_id = \(product)"
            )?.decode("n", as: Int.self) ?? -1
        }
    }

    /// A product's stock as the back office reads it (archived products too).
    func managedStock(_ product: Int64) async throws -> Int {
        try #require(try await database.products.product(ProductID(product))).stock
    }
}

/// The back office's catalog through its JSON API (docs/BEHAVIOUR.md §13.5–§13.6): products added,
/// edited against their version, archived; stock moved only through the ledger, never below zero.
@Suite("Back office: products and stock") struct AdminCatalogTests {
    @Test(
        "a new product has no stock, is in the shop at once, and is in the audit log; bad fields are refused by field",
        arguments: Backend.allCases)
    func creatingProducts(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            let created = try await store.createProduct(
                sku: "GAITER-1", title: "  Trail gaiters  ", category: "trail gear", token: owner)
            #expect(created.title == "Trail gaiters")
            #expect(created.stock == 0)
            #expect(created.version == 1)
            #expect(created.active)
            #expect(created.image == "/images/placeholder.svg")
            #expect(created.updatedBy == "owner@onlinestore.test")
            #expect(created.id > 20)
            // The shop shows it on this very server without waiting for a refresh: sold out for now.
            let shown = try await store.send(Endpoints.product, String(created.id))
            #expect(shown.status == 200)
            #expect(try shown.decode(ProductBody.self).stock == 0)
            let categories = try await store.send(Endpoints.categories).decode([String].self)
            #expect(categories.last == "trail gear")
            let audit = try #require(try await store.database.audit.entries().first)
            #expect(audit.action == "product.created")
            #expect(audit.subject == "product:\(created.id)")
            #expect(audit.after?.contains(#""sku":"GAITER-1""#) == true)
            // The placeholder image is served.
            #expect(try await store.send("GET", created.image).status == 200)

            func create(_ request: NewProductRequest) async throws -> TestStore.Reply {
                try await store.send(AdminEndpoints.createProduct, body: request, token: owner)
            }
            func request(
                sku: String = "OK-1", title: String = "Title", category: String = "apparel", price: Money = eur(100)
            ) -> NewProductRequest {
                NewProductRequest(sku: sku, title: title, description: "", category: category, price: price)
            }
            for (bad, field) in [
                (request(sku: "has space"), "sku"), (request(sku: ""), "sku"), (request(title: " "), "title"),
                (request(title: String(repeating: "t", count: 201)), "title"), (request(category: ""), "category"),
                (request(price: eur(0)), "price"), (request(price: Money(minorUnits: 100, currency: .usd)), "price"),
                (request(title: "line\nbreak"), "title"),
            ] {
                let reply = try await create(bad)
                #expect(reply.status == 422, "\(bad)")
                #expect(reply.errorType == "invalid_product")
                #expect(try reply.decode(ErrorBody.self).error.field == field, "\(bad)")
            }
            let taken = try await create(request(sku: "GAITER-1"))
            #expect(taken.status == 409)
            #expect(taken.errorType == "sku_taken")
            #expect(try taken.decode(ErrorBody.self).error.message.contains("Trail gaiters"))
            // A negative price is not even an amount the API reads.
            #expect(
                try await store.send(
                    "POST", "/api/admin/products", token: owner,
                    json:
                        #"{"sku":"N-1","title":"t","description":"","category":"c","price":{"amount":"-1.00","currency":"EUR"}}"#
                ).status == 422)
            // Nothing refused was written.
            let list = try await store.send(AdminEndpoints.products, token: owner).decode(AdminProductList.self)
            #expect(list.total == 21)
        }
    }

    @Test(
        "a new price applies to every basket at once: a shopper who confirmed the old total gets price_changed",
        arguments: Backend.allCases)
    func priceChange(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            let shopper = try await store.newSession()
            _ = try await store.setQuantity(2, of: 1, token: shopper)
            #expect(try await store.basket(shopper).total == eur(25_35))
            let product = try await store.send(AdminEndpoints.product, "1", token: owner).decode(AdminProductBody.self)
            let changed = try await store.send(
                AdminEndpoints.changeProduct, "1",
                body: ProductChangeRequest(version: product.version, price: eur(11_20)),
                token: owner)
            #expect(changed.status == 200)
            let after = try changed.decode(AdminProductBody.self)
            #expect(after.price == eur(11_20))
            #expect(after.version == product.version + 1)
            #expect(after.title == product.title)
            #expect(try await store.send(Endpoints.product, "1").decode(ProductBody.self).price == eur(11_20))
            let refused = try await store.checkout(token: shopper, key: "k1", method: visa, total: "25.35")
            #expect(refused.status == 409)
            #expect(refused.errorType == "price_changed")
            #expect(try await store.orderCount() == 0)
            #expect(try await store.basket(shopper).total == eur(27_35))
            let paid = try await store.checkout(token: shopper, key: "k2", method: visa, total: "27.35")
            #expect(paid.status == 201)
            let audit = try #require(try await store.database.audit.entries().first)
            #expect(audit.action == "product.changed")
            #expect(audit.before == #"{"price":"10.20 EUR"}"#)
            #expect(audit.after == #"{"price":"11.20 EUR"}"#)
        }
    }

    @Test(
        "two people saving one product at once: one succeeds, the other is told with the product as it is now",
        arguments: Backend.allCases)
    func editConflict(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            let catalog = try await store.staffToken(try await store.addStaff(role: .catalog), "a long password")
            for round in 0..<5 {
                let version = try await store.send(AdminEndpoints.product, "2", token: owner)
                    .decode(AdminProductBody.self).version
                async let first = store.send(
                    AdminEndpoints.changeProduct, "2",
                    body: ProductChangeRequest(version: version, title: "Cap by owner \(round)"), token: owner)
                async let second = store.send(
                    AdminEndpoints.changeProduct, "2",
                    body: ProductChangeRequest(version: version, price: eur(Int64(30_00 + round))), token: catalog)
                let replies = try await [first, second]
                #expect(replies.map(\.status).sorted() == [200, 409], "round \(round)")
                guard let winner = replies.first(where: { $0.status == 200 }),
                    let loser = replies.first(where: { $0.status == 409 })
                else { continue }
                let saved = try winner.decode(AdminProductBody.self)
                let conflict = try loser.decode(EditConflictBody.self)
                #expect(conflict.error.type == "edit_conflict")
                #expect(conflict.current == saved)
                // Nothing was overwritten: the loser's change is not in the product.
                let now = try await store.send(AdminEndpoints.product, "2", token: owner).decode(AdminProductBody.self)
                #expect(now == saved)
                #expect(now.version == version + 1)
            }
            // An edit from a version long gone is refused too, however it is sent.
            let stale = try await store.send(
                AdminEndpoints.changeProduct, "2", body: ProductChangeRequest(version: 1, title: "Late"), token: owner)
            #expect(stale.status == 409)
        }
    }

    @Test(
        "an archived product leaves the shop but not the back office; a basket holding it cannot pay for it",
        arguments: Backend.allCases)
    func archiving(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            let shopper = try await store.newSession()
            _ = try await store.setQuantity(1, of: 4, token: shopper)
            let product = try await store.send(AdminEndpoints.product, "4", token: owner).decode(AdminProductBody.self)
            let archived = try await store.send(
                AdminEndpoints.changeProduct, "4", body: ProductChangeRequest(version: product.version, active: false),
                token: owner)
            #expect(try archived.decode(AdminProductBody.self).active == false)
            #expect(try await store.send(Endpoints.product, "4").status == 404)
            #expect(try await store.send(Endpoints.products).decode([ProductBody].self).allSatisfy { $0.id != 4 })
            #expect(try await store.setQuantity(1, of: 4, token: try await store.newSession()).status == 404)
            let basket = try await store.basket(shopper)
            let refused = try await store.checkout(
                token: shopper, key: "k", method: visa, total: basket.total.amountText)
            #expect(refused.status == 409)
            #expect(refused.errorType == "out_of_stock")
            // Its stock is kept, and it is listed in the back office, where it can come back.
            #expect(try await store.managedStock(4) == product.stock)
            let list = try await store.send("GET", "/api/admin/products?q=flask&limit=10", token: owner)
                .decode(AdminProductList.self)
            #expect(list.products.contains { $0.id == 4 && !$0.active })
            let back = try await store.send(
                AdminEndpoints.changeProduct, "4",
                body: ProductChangeRequest(version: product.version + 1, active: true), token: owner)
            #expect(back.status == 200)
            #expect(try await store.send(Endpoints.product, "4").status == 200)
        }
    }

    @Test(
        "stock moves only by adjustments in one ledger with the sales: never below zero, the stock is its sum",
        arguments: Backend.allCases)
    func stockAdjustments(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            let created = try await store.createProduct(sku: "SOCK-9", token: owner)
            let received = try await store.adjustStock(created.id, by: 12, note: "Pallet 7", token: owner)
            #expect(received.status == 201)
            let body = try received.decode(StockAdjustmentBody.self)
            #expect(body.stock == 12)
            #expect(body.movement.change == 12)
            #expect(body.movement.reason == "received")
            #expect(body.movement.note == "Pallet 7")
            #expect(body.movement.actor == "owner@onlinestore.test")
            #expect(body.movement.stockAfter == 12)
            let damaged = try await store.adjustStock(created.id, by: -2, reason: "damaged", token: owner)
            #expect(try damaged.decode(StockAdjustmentBody.self).stock == 10)
            // Below zero: refused, nothing changed, nothing written.
            let tooMany = try await store.adjustStock(created.id, by: -11, reason: "counted", token: owner)
            #expect(tooMany.status == 409)
            #expect(tooMany.errorType == "insufficient_stock")
            #expect(try await store.managedStock(created.id) == 10)
            for (change, reason, note, field) in [
                (0, "received", nil, "change"), (5, "sale", nil, "reason"), (5, "stolen", nil, "reason"),
                (2_000_000, "received", nil, "change"), (5, "other", String(repeating: "n", count: 501), "note"),
            ] as [(Int, String, String?, String)] {
                let reply = try await store.adjustStock(
                    created.id, by: change, reason: reason, note: note, token: owner)
                #expect(reply.status == 422, "\(change) \(reason)")
                #expect(try reply.decode(ErrorBody.self).error.field == field)
            }
            // A sale is a line of the same ledger, naming its order.
            let shopper = try await store.newSession()
            _ = try await store.setQuantity(3, of: Int(created.id), token: shopper)
            let paid = try await store.checkout(
                token: shopper, key: "k", method: visa, total: try await store.basket(shopper).total.amountText)
            #expect(paid.status == 201)
            let order = try paid.decode(OrderBody.self)
            let ledger = try await store.send(AdminEndpoints.stockMovements, String(created.id), token: owner)
                .decode([StockMovementBody].self)
            #expect(ledger.map(\.change) == [-3, -2, 12])
            #expect(ledger.map(\.reason) == ["sale", "damaged", "received"])
            #expect(ledger.first?.orderID == order.id)
            #expect(ledger.first?.actor == "shop")
            #expect(ledger.map(\.stockAfter) == [7, 10, 12])
            #expect(try await store.ledgerSum(created.id) == 7)
            #expect(try await store.managedStock(created.id) == 7)
            let audit = try await store.database.audit.entries().filter { $0.action == "stock.adjusted" }
            #expect(audit.count == 2)
            #expect(audit.first?.after?.contains(#""reason":"damaged""#) == true)
        }
    }

    @Test(
        "200 checkouts and 50 adjustments at once on one product: never below zero, every sale in the ledger",
        arguments: Backend.allCases)
    func stockRace(backend: Backend) async throws {
        let configuration = StoreConfiguration(newShoppersPerAddressBurst: 1_000)
        try await TestStore.with(backend, configuration: configuration) { store in
            let owner = try await store.ownerToken()
            let catalog = try await store.staffToken(try await store.addStaff(role: .catalog), "a long password")
            let product = try await store.createProduct(sku: "RACE-1", price: 5_00, token: owner)
            _ = try await store.adjustStock(product.id, by: 120, token: owner)
            var shoppers: [String] = []
            for _ in 0..<200 {
                let token = try await store.newSession()
                #expect(try await store.setQuantity(1, of: Int(product.id), token: token).status == 200)
                shoppers.append(token)
            }
            let total = try await store.basket(shoppers[0]).total.amountText
            let outcomes = try await withThrowingTaskGroup(of: (String, Int).self) { group in
                for (index, shopper) in shoppers.enumerated() {
                    group.addTask {
                        (
                            "checkout",
                            try await store.checkout(token: shopper, key: "k\(index)", method: visa, total: total)
                                .status
                        )
                    }
                }
                for index in 0..<50 {
                    group.addTask {
                        let change = index.isMultiple(of: 2) ? -3 : 2
                        let reason = change < 0 ? "damaged" : "received"
                        return (
                            "adjust",
                            try await store.adjustStock(product.id, by: change, reason: reason, token: catalog).status
                        )
                    }
                }
                var outcomes: [(String, Int)] = []
                for try await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            let checkouts = outcomes.filter { $0.0 == "checkout" }.map(\.1)
            let adjustments = outcomes.filter { $0.0 == "adjust" }.map(\.1)
            #expect(Set(checkouts).isSubset(of: [201, 409]), "\(Set(checkouts))")
            #expect(Set(adjustments).isSubset(of: [201, 409]), "\(Set(adjustments))")
            let stock = try await store.managedStock(product.id)
            #expect(stock >= 0)
            #expect(try await store.ledgerSum(product.id) == stock)
            // Every sale has its line, naming its order; every refusal wrote nothing.
            let sales = try await store.database.sql.read { connection in
                try connection.query(
                    """
                    SELECT m.change_units, o.id AS order_id FROM stock_movements m
                    LEFT JOIN orders o ON o.attempt_id = m.attempt_id
                    WHERE m.product_id = \(product.id) AND m.reason = 'sale'
                    """
                ).map { (try $0.decode("change_units", as: Int.self), try $0.decode("order_id", as: String?.self)) }
            }
            let paid = checkouts.filter { $0 == 201 }.count
            #expect(sales.count == paid)
            #expect(sales.allSatisfy { $0.0 == -1 && $0.1 != nil })
            let adjusted = adjustments.filter { $0 == 201 }.count
            let movements = try await store.database.products.movements(of: ProductID(product.id), limit: 1_000)
            #expect(movements.filter { $0.reason == .damaged || $0.reason == .received }.count == adjusted + 1)
            #expect(paid > 0)
        }
    }
}
