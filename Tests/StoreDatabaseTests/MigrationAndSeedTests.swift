import CheckoutKit
import Foundation
import StoreCrypto
import StoreDatabase
import StoreSQL
import StoreTestSupport
import Testing

@Suite("Migrations and the seeded store") struct MigrationAndSeedTests {
    @Test(arguments: Backend.allCases)
    func migrationsAreRecordedAndIdempotent(backend: Backend) async throws {
        try await withStoreDatabase(backend, seeded: false) { database in
            let versions = Schema.migrations.map { $0.version }
            let applied = try await Migrator.appliedVersions(database.sql)
            #expect(applied == versions)
            let appliedAgain = try await Migrator.migrate(database.sql)
            #expect(appliedAgain.isEmpty)
            #expect(try await Migrator.appliedVersions(database.sql) == applied)
        }
    }

    @Test(arguments: Backend.allCases)
    func concurrentMigrationsApplyEachVersionOnce(backend: Backend) async throws {
        try await withStoreDatabase(backend, seeded: false) { database in
            // The schema exists; ten more concurrent runs find nothing left to do and do not fail.
            let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<10 { group.addTask { try await Migrator.migrate(database.sql) } }
                return try await group.reduce(into: [Int]()) { $0 += $1 }
            }
            #expect(applied.isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func theSeededCatalog(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let products = try await database.catalog.products()
            #expect((18...22).contains(products.count))
            #expect(try await database.catalog.categories() == ["hydration", "apparel", "accessories", "nutrition"])
            #expect(Set(products.map(\.category)).count == 4)
            // The three products of docs/BEHAVIOUR.md §3's worked cases.
            #expect(products.contains { $0.price == eur(10_20) && $0.title.localizedCaseInsensitiveContains("bottle") })
            #expect(products.contains { $0.price == eur(21_90) && $0.title.localizedCaseInsensitiveContains("cap") })
            #expect(products.contains { $0.price == eur(8_95) && $0.title.localizedCaseInsensitiveContains("socks") })
            #expect(products.contains { $0.stock < 30 })
            #expect(products.allSatisfy { $0.imagePath.hasPrefix("/images/") && $0.price.currency == .eur })
            // Every image exists as a file shipped with the store.
            let images = try ProductImages.load()
            for product in products {
                #expect(images[String(product.imagePath.dropFirst("/images/".count))] != nil)
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func theSeededPromotions(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let promotions = database.promotions
            let run10 = try #require(try await promotions.promotion(code("run10")))
            #expect(run10.kind == .percentOff(try #require(Rate(percent: 10))))
            #expect(run10.minimumSubtotal == eur(0))
            let gift25 = try #require(try await promotions.promotion(code("GIFT25")))
            #expect(gift25.kind == .amountOff(eur(25_00)))
            let big20 = try #require(try await promotions.promotion(code("BIG20")))
            #expect(big20.kind == .percentOff(try #require(Rate(percent: 20))))
            #expect(big20.minimumSubtotal == eur(100_00))
            #expect(try await promotions.promotion(code("NOPE")) == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func theDemoCustomers(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let pro = try #require(try await database.customers.customer(email: "pro@onlinestore.test"))
            let free = try #require(try await database.customers.customer(email: " FREE@onlinestore.test "))
            #expect(pro.subscription.tier(at: Date()) == .pro)
            #expect(free.subscription.tier(at: Date()) == .free)
            #expect(free.subscription == .none)
            #expect(PasswordHasher.minimal.verify("pro-demo-password", against: pro.passwordHash))
            #expect(PasswordHasher.minimal.verify("free-demo-password", against: free.passwordHash))
            #expect(!PasswordHasher.minimal.verify("free-demo-password", against: pro.passwordHash))
        }
    }

    @Test(arguments: Backend.allCases)
    func seedingAgainChangesNothing(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let before = try await database.catalog.products()
            #expect(try await Seeder.seed(database.sql, hasher: .minimal) == 0)
            #expect(try await database.catalog.products() == before)
        }
    }
}

@Suite("Database URLs") struct DatabaseURLTests {
    @Test func parsesBothBackends() throws {
        #expect(try DatabaseURL("sqlite:.store/store.sqlite") == .sqlite(path: ".store/store.sqlite"))
        #expect(try DatabaseURL("sqlite:///tmp/x.sqlite") == .sqlite(path: "/tmp/x.sqlite"))
        #expect(try DatabaseURL("postgres://u@h:5432/db") == .postgres(url: "postgres://u@h:5432/db"))
        #expect(try DatabaseURL("postgresql://u@h/db") == .postgres(url: "postgresql://u@h/db"))
        #expect(throws: DatabaseURLError.missingPath) { try DatabaseURL("sqlite:") }
        #expect(throws: DatabaseURLError.unsupportedScheme) { try DatabaseURL("mysql://h/db") }
        #expect(throws: DatabaseURLError.unsupportedScheme) { try DatabaseURL("") }
    }

    @Test func passwordsAreRedacted() throws {
        #expect(
            try DatabaseURL("postgres://store:s3cret@db:5432/store").redacted == "postgres://store:***@db:5432/store")
        #expect(try DatabaseURL("postgres://store@db/store").redacted == "postgres://store@db/store")
        // libpq also takes a password as a query parameter.
        #expect(
            try DatabaseURL("postgres://store@db/store?sslmode=disable&password=s3cret").redacted
                == "postgres://store@db/store?sslmode=disable&password=***")
        // Found by Fuzz/DatabaseURLs: a combining mark after `:` or `@` hid the delimiter from a
        // Character search, and the password was printed.
        #expect(try DatabaseURL("postgres://u:\u{301}s3cret@db/x").redacted == "postgres://u:***@db/x")
        #expect(try DatabaseURL("postgres://u:s3cret@\u{301}db/x").redacted == "postgres://u:***@\u{301}db/x")
    }
}

@Suite("Migrating a store with payments under way") struct PaymentMigrationTests {
    /// Under the first schema, an attempt whose every call was refused held its stock and promotion
    /// use until it was given up; one with a call in flight may have charged. Version 2 gives the
    /// first back at once and keeps the second for the provider to settle.
    @Test(arguments: Backend.allCases)
    func attemptsUnderWayAreCarriedOver(backend: Backend) async throws {
        func run(_ url: String) async throws {
            let database = try await StoreDatabase.openUnmigrated(url: url, poolSize: 2)
            do {
                try await check(database)
            } catch {
                await database.close()
                throw error
            }
            await database.close()
        }
        func check(_ database: StoreDatabase) async throws {
            try await Migrator.migrate(database.sql, migrations: [Schema.migrations[0]], now: testNow)
            let stock = 20
            try await database.sql.write { connection in
                // A store as the first schema had it (the seeder writes the current one).
                try connection.execute("INSERT INTO categories (name, position) VALUES ('nutrition', 0)")
                try connection.execute(
                    """
                    INSERT INTO products (id, title, description, category, price_minor, currency, image_path,
                                          rating_tenths, rating_count, stock)
                    VALUES (11, 'Energy gels', 'Six gels.', 'nutrition', 500, 'EUR', '/images/energy-gels.svg', 40,
                            10, \(stock))
                    """)
                try connection.execute(
                    """
                    INSERT INTO promotions (code, kind, percent_off, currency, times_used)
                    VALUES ('RUN10', 'percent_off', 10, 'EUR', 0)
                    """)
                for (attempt, shopper, inFlight) in [("pay_refused", "shp_a", 0), ("pay_flying", "shp_b", 1)] {
                    try connection.execute(
                        "INSERT INTO shoppers (id, customer_id, created_at) VALUES (\(shopper), NULL, 0)")
                    try connection.execute(
                        """
                        INSERT INTO payment_attempts (
                            id, shopper_id, idempotency_key, request_fingerprint, state, currency, subtotal_minor,
                            discount_minor, shipping_minor, fee_minor, amount_minor, payment_method, payment_token,
                            promotion_code, lease_expires_at, may_have_charged, call_in_flight, created_at, updated_at)
                        VALUES (\(attempt), \(shopper), 'k', '{}', 'pending', 'EUR', 1000, 100, 495, 0, 1395, 'qr_code',
                                NULL, 'RUN10', 0, 0, \(inFlight), 0, 0)
                        """)
                    try connection.execute(
                        """
                        INSERT INTO payment_attempt_lines (
                            attempt_id, position, product_id, title, unit_price_minor, quantity, line_total_minor)
                        VALUES (\(attempt), 0, 11, 't', 500, 2, 1000)
                        """)
                }
                try connection.execute("UPDATE products SET stock = stock - 4 WHERE id = 11")
                try connection.execute("UPDATE promotions SET times_used = 2 WHERE code = 'RUN10'")
            }
            // Every migration after the first, whatever later ones are added.
            #expect(
                try await Migrator.migrate(database.sql, now: testNow)
                    == Array(Schema.migrations.map(\.version).dropFirst()))
            #expect(try #require(try await database.catalog.product(ProductID(11))).stock == stock - 2)
            // The stock ledger opens with the stock as it was, one counted line: the stock is its sum.
            let product = try #require(try await database.products.product(ProductID(11)))
            #expect(product.details.sku == "P-11")
            #expect(product.details.active)
            let ledger = try await database.products.movements(of: ProductID(11))
            #expect(ledger.map(\.change) == [stock - 2])
            #expect(ledger.map(\.reason) == [.counted])
            #expect(try await timesUsed(database, "RUN10") == 1)
            #expect(try await database.payments.attempt(id: AttemptID(rawValue: "pay_refused")) == nil)
            let flying = try #require(try await database.payments.attempt(id: AttemptID(rawValue: "pay_flying")))
            #expect(flying.state == .pending)
            #expect(flying.answerLost)
            #expect(try await database.baskets.basket(for: ShopperID(rawValue: "shp_b")).version == 0)
            // An attempt recorded before decline reasons were kept apart reads as having none.
            #expect(flying.declineReason == nil)
            // The pending attempt gives its units back as a line of their own when it fails.
            _ = try await database.payments.recordFailed(
                flying, reason: .cardDeclined, response: StoredResponse(status: 402, body: "{}"), event: nil,
                now: testNow)
            let after = try await database.products.movements(of: ProductID(11))
            #expect(after.map(\.change) == [2, stock - 2])
            #expect(after.first?.reason == .saleReleased)
            #expect(try #require(try await database.products.product(ProductID(11))).stock == stock)
        }
        switch backend {
        case .sqlite:
            try await withTemporaryDirectory("store-migrate") { directory in
                try await run("sqlite:\(directory.appendingPathComponent("store.sqlite").path)")
            }
        case .postgres:
            guard let base = TestPostgres.required() else { return }
            try await TestPostgres.withFreshSchema(base) { url in try await run(url) }
        }
    }
}
