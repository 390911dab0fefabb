import CheckoutKit
import Foundation
import PostgresDriver
import StoreAPI
import StoreCrypto
import StoreDatabase
import StoreSQL
import StoreServer
import StoreServices

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The back office's list pages at shop scale: a fresh database (SQLite, and PostgreSQL when
// STORE_BENCH_POSTGRES_URL is set) gets the demo data and then, in bulk SQL, 10,000 products with
// their opening stock lines, 5,000 customers and 100,000 paid orders over 90 days (1–3 lines each,
// their payment attempts and 'paid' timeline rows, fulfilment statuses by age). Then each service
// call a back-office page makes is timed, one call at a time, after a warm-up: p50, p99 and max.
// Last, the order list is timed through HTTP on a running store over the same database. Run with
// `make bench`; `--quick` runs a tenth of the data and fewer calls, to try the program out; `--keep`
// keeps the SQLite file and the PostgreSQL schema, and prints where, to look at query plans.

/// How much data and how many timed calls.
struct Scale {
    var products = 10_000
    var customers = 5_000
    var orders = 100_000
    var days = 90
    /// Timed calls per query, after `warmUp` untimed ones.
    var runs = 300
    var warmUp = 30
    /// New products in the catalog file imported once at the end.
    var importRows = 10_000

    static let quick = Scale(
        products: 1_000, customers: 500, orders: 10_000, days: 90, runs: 50, warmUp: 5, importRows: 1_000)
}

/// A fixed-seed generator, so every run builds the same shop (dated from its start).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The word a hundredth of the product titles carry, searched for as a merchant would.
let rareWord = "Merino"
let productPageSize = 50
let orderPageSize = 50
let day: Int64 = 86_400_000

/// Rows of one table, written as multi-row `INSERT`s.
struct BulkInsert {
    let head: String
    var rows: [String] = []

    init(_ table: String, _ columns: String) {
        head = "INSERT INTO \(table) (\(columns)) VALUES\n"
    }

    /// One row, each value already SQL text.
    mutating func append(_ values: String...) {
        append(values)
    }

    mutating func append(_ values: [String]) {
        rows.append("(" + values.joined(separator: ", ") + ")")
    }

    /// One statement per `batch` rows.
    func statements(batch: Int = 1_000) -> [String] {
        stride(from: 0, to: rows.count, by: batch).map { start in
            head + rows[start..<min(start + batch, rows.count)].joined(separator: ",\n")
        }
    }
}

/// `text` as an SQL string literal (the generated text has no quote, but it is escaped anyway).
func literal(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
}

func literal(_ text: String?) -> String {
    text.map(literal) ?? "NULL"
}

/// Runs `tables`' statements, in their order, in one transaction.
func insert(_ tables: [BulkInsert], into database: StoreDatabase) async throws {
    let statements = tables.flatMap { $0.statements() }
    try await database.sql.write { connection in
        for statement in statements { try connection.executeScript(statement) }
    }
}

/// What the timed queries look for, taken from the data as it was made.
struct Landmarks {
    /// An order in the middle of the list.
    var orderID = ""
    /// A customer with orders.
    var customerEmail = ""
}

/// One product as the orders' lines need it.
struct MadeProduct {
    let id: Int64
    let title: String
    let price: Int64
}

/// Adds the shop to `database` (migrated, with the demo data) in bulk SQL, its orders placed over
/// the `scale.days` days up to `now`.
func populate(_ database: StoreDatabase, scale: Scale, now: Date) async throws -> Landmarks {
    var random = SplitMix64(state: 2_026)
    let nowMilliseconds = Int64(now.timeIntervalSince1970 * 1_000)
    let firstDay = nowMilliseconds - Int64(scale.days) * day
    let currency = Currency.eur.code
    // The demo data's products and customers count towards the shop's numbers; the new ones are
    // numbered after them.
    let existing = try await database.sql.read { connection in
        try ["products", "customers"].map { table in
            let row = try connection.queryFirst(
                "SELECT COUNT(*) AS n, COALESCE(MAX(id), 0) AS highest FROM \(unsafeSQL: table)")
            return (
                count: try row?.decode("n", as: Int.self) ?? 0, highest: try row?.decode("highest", as: Int64.self) ?? 0
            )
        }
    }
    let (productBase, customerBase) = (existing[0].highest, existing[1].highest)
    let (productCount, customerCount) = (scale.products - existing[0].count, scale.customers - existing[1].count)

    // Products, with their categories and opening stock lines.
    let newCategories = ["footwear", "electronics", "recovery", "bags", "gloves", "headwear", "socks", "books"]
    let categories = SeedCatalog.categories + newCategories
    var categoryRows = BulkInsert("categories", "name, position")
    for (offset, name) in newCategories.enumerated() {
        categoryRows.append(literal(name), String(SeedCatalog.categories.count + offset))
    }
    let adjectives = [
        "Light", "Trail", "Road", "Storm", "Ultra", "Tempo", "Night", "Summit", "Coastal", "Alpine", "Rapid",
        "Steady", "Classic", "Pro", "Everyday", "Winter", "Summer", "Racing", "Easy", "Hill",
    ]
    let nouns = [
        "Shorts", "Jacket", "Gilet", "Cap", "Beanie", "Gloves", "Socks", "Bottle", "Flask", "Belt", "Vest", "Tights",
        "Tee", "Singlet", "Headband", "Neck Tube", "Armband", "Gel Pack", "Bar Box", "Insoles", "Laces",
        "Watch Strap", "Head Lamp", "Race Pack",
    ]
    let colours = ["Black", "Blue", "Red", "Green", "Grey", "Orange", "White", "Yellow"]
    var products: [MadeProduct] = []
    var productRows = BulkInsert(
        "products",
        """
        id, sku, title, description, category, price_minor, currency, image_path, rating_tenths, rating_count, stock,
        active, version, updated_at
        """)
    var stockRows = BulkInsert("stock_movements", "product_id, change_units, reason, note, actor, stock_after, at")
    for index in 0..<productCount {
        let id = productBase + 1 + Int64(index)
        let adjective = adjectives.randomElement(using: &random) ?? "Light"
        let noun = nouns.randomElement(using: &random) ?? "Cap"
        let colour = colours.randomElement(using: &random) ?? "Black"
        let title =
            index % 100 == 37 ? "\(adjective) \(rareWord) \(noun), \(colour)" : "\(adjective) \(noun), \(colour)"
        let price =
            Int64.random(in: 1..<150, using: &random) * 100 + ([0, 50, 95, 99].randomElement(using: &random) ?? 0)
        let roll = Double.random(in: 0..<1, using: &random)
        let stock: Int
        switch roll {
        case ..<0.02: stock = 0  // sold out
        case ..<0.07: stock = Int.random(in: 1...5, using: &random)  // low
        default: stock = Int.random(in: 6...400, using: &random)
        }
        let active = Double.random(in: 0..<1, using: &random) < 0.97
        productRows.append(
            String(id), literal("BO-\(String(format: "%05d", index + 1))"), literal(title),
            literal("\(adjective) \(noun.lowercased()) for runners, in \(colour.lowercased())."),
            literal(categories.randomElement(using: &random) ?? "apparel"), String(price), literal(currency),
            literal("/images/placeholder.svg"), String(Int.random(in: 0...50, using: &random)),
            String(Int.random(in: 0...500, using: &random)), String(stock), active ? "1" : "0", "1",
            String(firstDay))
        if stock > 0 {
            stockRows.append(
                String(id), String(stock), "'counted'", "'Opening stock'", "'store'", String(stock), String(firstDay))
        }
        if active { products.append(MadeProduct(id: id, title: title, price: price)) }
    }
    try await insert([categoryRows, productRows, stockRows], into: database)

    // Customers, each with their shopper.
    let firstNames = [
        "Alex", "Sam", "Robin", "Charlie", "Jordan", "Taylor", "Morgan", "Casey", "Jamie", "Riley", "Avery", "Quinn",
        "Harper", "Rowan", "Emerson", "Finley", "Hayden", "Kendall", "Logan", "Reese",
    ]
    let lastNames = [
        "Smith", "Jones", "Martin", "Bernard", "Dubois", "Schmidt", "Rossi", "Garcia", "Novak", "Jansen", "Berg",
        "Costa", "Keller", "Moreau", "Weber", "Silva", "Horvat", "Nielsen", "Murphy", "Kowalski",
    ]
    var customerRows = BulkInsert(
        "customers",
        """
        id, email, password_hash, first_name, last_name, subscription_expires_at, subscription_auto_renew, created_at
        """)
    var shopperRows = BulkInsert("shoppers", "id, customer_id, created_at")
    var customerShoppers: [String] = []
    var landmarks = Landmarks()
    for index in 0..<customerCount {
        let id = customerBase + 1 + Int64(index)
        let first = firstNames.randomElement(using: &random) ?? "Alex"
        let last = lastNames.randomElement(using: &random) ?? "Smith"
        let email = "\(first).\(last).\(index + 1)@example.com".lowercased()
        if index == customerCount / 3 { landmarks.customerEmail = email }
        let createdAt = firstDay - Int64.random(in: 0..<(365 * day), using: &random)
        let subscribed = Double.random(in: 0..<1, using: &random) < 0.1
        customerRows.append(
            String(id), literal(email), "'$argon2id$v=19$bench'", literal(first), literal(last),
            subscribed ? String(nowMilliseconds + Int64.random(in: 1...365, using: &random) * day) : "NULL",
            subscribed ? "1" : "0", String(createdAt))
        let shopper = OpaqueIdentifier.make(prefix: "shp_", using: &random)
        shopperRows.append(literal(shopper), String(id), String(createdAt))
        customerShoppers.append(shopper)
    }
    try await insert([customerRows, shopperRows], into: database)

    // Orders, in transactions of 10,000: a fifth from guests (a shopper each), the rest from the
    // customers; each with its attempt, lines and 'paid' timeline row.
    let chunk = 10_000
    for chunkStart in stride(from: 0, to: scale.orders, by: chunk) {
        var guests = BulkInsert("shoppers", "id, customer_id, created_at")
        var attempts = BulkInsert(
            "payment_attempts",
            """
            id, shopper_id, idempotency_key, request_fingerprint, state, currency, subtotal_minor, discount_minor,
            shipping_minor, fee_minor, amount_minor, payment_method, payment_token, promotion_code, lease_expires_at,
            may_have_charged, response_status, response_body, order_id, created_at, updated_at, basket_version
            """)
        var orders = BulkInsert(
            "orders",
            """
            id, shopper_id, attempt_id, status, currency, subtotal_minor, discount_minor, shipping_minor, fee_minor,
            total_minor, payment_method, card_brand, promotion_code, created_at, fulfilment_status, tracking_number
            """)
        var lines = BulkInsert(
            "order_lines", "order_id, position, product_id, title, unit_price_minor, quantity, line_total_minor")
        var events = BulkInsert("order_events", "order_id, at, kind, actor")
        for index in chunkStart..<min(chunkStart + chunk, scale.orders) {
            let createdAt = nowMilliseconds - Int64.random(in: 0..<(Int64(scale.days) * day), using: &random)
            let shopper: String
            if Double.random(in: 0..<1, using: &random) < 0.8,
                let customer = customerShoppers.randomElement(
                    using: &random)
            {
                shopper = customer
            } else {
                shopper = OpaqueIdentifier.make(prefix: "shp_", using: &random)
                guests.append(literal(shopper), "NULL", String(createdAt - 600_000))
            }
            let orderID = OpaqueIdentifier.make(prefix: "ord_", using: &random)
            if index == scale.orders / 2 { landmarks.orderID = orderID }
            let attemptID = OpaqueIdentifier.make(prefix: "pay_", using: &random)
            let lineCount = [1, 1, 1, 1, 1, 2, 2, 2, 3, 3].randomElement(using: &random) ?? 1
            var subtotal: Int64 = 0
            for position in 0..<lineCount {
                guard let product = products.randomElement(using: &random) else { break }
                let quantity = [1, 1, 1, 1, 1, 1, 1, 2, 2, 3].randomElement(using: &random) ?? 1
                let lineTotal = product.price * Int64(quantity)
                subtotal += lineTotal
                lines.append(
                    literal(orderID), String(position), String(product.id), literal(product.title),
                    String(product.price), String(quantity), String(lineTotal))
            }
            let promotion: String? = Double.random(in: 0..<1, using: &random) < 0.1 ? "RUN10" : nil
            let discount = promotion == nil ? 0 : subtotal / 10
            let shipping: Int64 = subtotal - discount >= 5_000 ? 0 : 495
            let total = subtotal - discount + shipping
            let methodRoll = Double.random(in: 0..<1, using: &random)
            let method = methodRoll < 0.8 ? "card" : methodRoll < 0.9 ? "payment_link" : "qr_code"
            let brand = method == "card" ? ["visa", "mastercard", "amex"].randomElement(using: &random) : nil
            let (status, fulfilment) = fulfilmentByAge(nowMilliseconds - createdAt, using: &random)
            let tracking =
                fulfilment == "shipped" || fulfilment == "delivered"
                ? "TRK\(UInt64.random(in: 1_000_000_000...9_999_999_999, using: &random))" : nil
            let amounts = [subtotal, discount, shipping, 0, total].map(String.init)
            attempts.append(
                [
                    literal(attemptID), literal(shopper),
                    literal(OpaqueIdentifier.make(prefix: "key_", using: &random)), "'bench'", "'succeeded'",
                    literal(currency),
                ] + amounts + [
                    literal(method), method == "card" ? "'tok_visa'" : "NULL", literal(promotion),
                    String(createdAt + 60_000), "1", "201", "'{}'", literal(orderID), String(createdAt - 2_000),
                    String(createdAt), "0",
                ])
            orders.append(
                [literal(orderID), literal(shopper), literal(attemptID), literal(status), literal(currency)] + amounts
                    + [
                        literal(method), literal(brand), literal(promotion), String(createdAt), literal(fulfilment),
                        literal(tracking),
                    ])
            events.append(literal(orderID), String(createdAt), "'paid'", "'customer'")
        }
        try await insert([guests, attempts, orders, lines, events], into: database)
    }

    if database.sql.dialect == .postgres {
        // New products and customers are numbered after the ones made here.
        _ = try await database.sql.write { connection in
            try connection.executeScript(
                """
                SELECT setval(pg_get_serial_sequence('products', 'id'), MAX(id)) FROM products;
                SELECT setval(pg_get_serial_sequence('customers', 'id'), MAX(id)) FROM customers;
                """)
        }
    }
    return landmarks
}

/// An order's payment status and fulfilment status by its age: the last day's mostly waiting to
/// be packed, the last three days' on their way, older ones delivered (a few cancelled and refunded).
func fulfilmentByAge(_ age: Int64, using random: inout SplitMix64) -> (status: String, fulfilment: String) {
    let roll = Double.random(in: 0..<1, using: &random)
    switch age {
    case ..<day: return ("paid", roll < 0.6 ? "unfulfilled" : "packed")
    case ..<(3 * day): return ("paid", roll < 0.1 ? "unfulfilled" : roll < 0.4 ? "packed" : "shipped")
    case ..<(7 * day): return ("paid", roll < 0.5 ? "shipped" : "delivered")
    default: return roll < 0.03 ? ("refunded", "cancelled") : ("paid", "delivered")
    }
}

/// The latencies of one query.
struct Latency {
    let label: String
    /// What the query matched over every page (its `total`), to show what was measured.
    let matches: Int
    let samples: [Duration]

    /// The `fraction` quantile, nearest rank.
    func quantile(_ fraction: Double) -> Duration {
        let sorted = samples.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    var p50: Duration { quantile(0.5) }
    var p99: Duration { quantile(0.99) }
    var maximum: Duration { samples.max() ?? .zero }
}

extension Duration {
    var milliseconds: String {
        let (seconds, attoseconds) = components
        return String(format: "%.2f ms", Double(seconds) * 1_000 + Double(attoseconds) / 1e15)
    }
}

/// Times `body` `scale.runs` times, one call at a time, after `scale.warmUp` untimed calls.
func measure(_ label: String, scale: Scale, _ body: () async throws -> Int) async throws -> Latency {
    var matches = 0
    for _ in 0..<scale.warmUp { matches = try await body() }
    let clock = ContinuousClock()
    var samples: [Duration] = []
    samples.reserveCapacity(scale.runs)
    for _ in 0..<scale.runs {
        let start = clock.now
        matches = try await body()
        samples.append(clock.now - start)
    }
    return Latency(label: label, matches: matches, samples: samples)
}

/// Builds the shop on the database at `url` and times the back office's calls on it.
func benchmark(_ name: String, url: String, scale: Scale, now: Date) async throws -> [Latency] {
    let database = try await StoreDatabase.open(url: url, hasher: .minimal, now: now)
    let clock = ContinuousClock()
    let start = clock.now
    let landmarks: Landmarks
    do {
        landmarks = try await populate(database, scale: scale, now: now)
    } catch {
        await database.close()
        throw error
    }
    print("\(name): the shop was written in \(clock.now - start)")
    if database.sql.dialect == .postgres {
        // What autovacuum would do after so many inserts: the planner's statistics and the
        // visibility map that index-only scans read.
        try PostgresConnection(url: url).executeScript(
            """
            VACUUM ANALYZE categories, products, stock_movements, customers, shoppers, payment_attempts, orders,
                order_lines, order_events
            """)
    }

    let storeClock = StoreClock { now }
    let catalog = CatalogManagement(
        database: database, catalog: Catalog(database: database), currency: .eur, clock: storeClock)
    let orders = OrderManagement(database: database, clock: storeClock)
    let dashboard = Dashboard(database: database, currency: .eur, clock: storeClock)
    let customers = CustomerDirectory(database: database, currency: .eur, clock: storeClock)
    let weekStart = Dashboard.utcDay(containing: now.addingTimeInterval(-10 * OrderManagement.day)).start
    let week = OrderListFilter(
        placedFrom: weekStart, placedBefore: weekStart.addingTimeInterval(7 * OrderManagement.day))

    var figures: [Latency] = []
    do {
        figures.append(
            try await measure("products: first page", scale: scale) {
                try await catalog.products(search: nil, offset: 0, limit: productPageSize).total
            })
        figures.append(
            try await measure("products: search \"\(rareWord.lowercased())\" (1 %)", scale: scale) {
                try await catalog.products(search: rareWord.lowercased(), offset: 0, limit: productPageSize).total
            })
        figures.append(
            try await measure("products: page 100", scale: scale) {
                try await catalog.products(search: nil, offset: 99 * productPageSize, limit: productPageSize).total
            })
        figures.append(
            try await measure("orders: first page", scale: scale) {
                try await orders.orders(OrderListFilter(), offset: 0, limit: orderPageSize).total
            })
        figures.append(
            try await measure("orders: unfulfilled", scale: scale) {
                try await orders.orders(OrderListFilter(fulfilment: .unfulfilled), offset: 0, limit: orderPageSize)
                    .total
            })
        figures.append(
            try await measure("orders: 7 days", scale: scale) {
                try await orders.orders(week, offset: 0, limit: orderPageSize).total
            })
        figures.append(
            try await measure("orders: search an order id", scale: scale) {
                try await orders.orders(OrderListFilter(search: landmarks.orderID), offset: 0, limit: orderPageSize)
                    .total
            })
        figures.append(
            try await measure("orders: search a customer's email", scale: scale) {
                try await orders.orders(
                    OrderListFilter(search: landmarks.customerEmail), offset: 0, limit: orderPageSize
                ).total
            })
        figures.append(
            try await measure("orders: offset 5,000", scale: scale) {
                try await orders.orders(OrderListFilter(), offset: 5_000, limit: orderPageSize).total
            })
        figures.append(
            try await measure("dashboard", scale: scale) {
                try await dashboard.figures().figures.ordersToday
            })
        figures.append(
            try await measure("customers: first page", scale: scale) {
                try await customers.customers(search: nil, offset: 0, limit: 50).total
            })
        try await benchmarkImport(database, rows: scale.importRows, clock: storeClock, name: name)
    } catch {
        await database.close()
        throw error
    }
    await database.close()
    figures += try await benchmarkHTTP(url: url, scale: scale, landmarks: landmarks)
    return figures
}

/// Times a catalog file of `rows` new products through what `store catalog import` and the
/// back office's import do: the check (the preview, nothing written), then the import itself — one
/// write transaction with every product, its stock as a `counted` ledger line, and its audit line.
func benchmarkImport(_ database: StoreDatabase, rows: Int, clock storeClock: StoreClock, name: String) async throws {
    var csv = "sku,title,description,category,price,stock,active\r\n"
    for row in 1...rows {
        csv +=
            "IMPORT-\(row),Imported product \(row),\"Light, folding\",imports,\(10 + row % 90).50,\(row % 40),true\r\n"
    }
    let bytes = Array(csv.utf8)
    let imports = CatalogImport(database: database, catalog: nil, currency: .eur, clock: storeClock)
    let clock = ContinuousClock()
    let checkStart = clock.now
    let preview = try await imports.check(bytes)
    let checked = clock.now - checkStart
    guard preview.problems.isEmpty, preview.plan.creations.count == rows else {
        throw BenchmarkError("the import's preview found \(preview.problems.count) problems")
    }
    let applyStart = clock.now
    let summary = try await imports.apply(bytes, by: .commandLine)
    let applied = clock.now - applyStart
    print(
        "\(name): a catalog file of \(rows) new products (\(bytes.count / 1024) KiB): checked in \(checked), "
            + "imported in \(applied) (\(summary.created) added, \(summary.stockAdjustments) stock lines)")
}

/// Times the order list through HTTP: a store started on the same database, signed in as the
/// demo owner, asked `GET /api/admin/orders` over one keep-alive connection.
func benchmarkHTTP(url: String, scale: Scale, landmarks: Landmarks) async throws -> [Latency] {
    let store: RunningStore
    do {
        store = try await RunningStore.start(
            RunningStore.Launch(databaseURL: url, server: StoreServer.Options(port: 0, hasher: .minimal, log: .discard))
        )
    } catch {
        throw BenchmarkError("cannot start the store: \(error)")
    }
    do {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 1
        let session = URLSession(configuration: configuration)
        guard let owner = SeedCatalog.demoStaff.first, let base = URL(string: store.address) else {
            throw BenchmarkError("no demo owner or no address")
        }
        var signIn = URLRequest(url: base.appendingPathComponent("api/admin/sessions"))
        signIn.httpMethod = "POST"
        signIn.setValue("application/json", forHTTPHeaderField: "Content-Type")
        signIn.httpBody = try JSONEncoder().encode(StaffSignInRequest(email: owner.email, password: owner.password))
        let (answer, _) = try await session.data(for: signIn)
        let token = try JSONDecoder().decode(StaffSessionResponse.self, from: answer).token

        func list(_ query: String) async throws -> Int {
            guard let address = URL(string: "\(store.address)/api/admin/orders?\(query)") else {
                throw BenchmarkError("bad query \(query)")
            }
            var request = URLRequest(url: address)
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            let (body, response) = try await session.data(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else {
                throw BenchmarkError("GET /api/admin/orders?\(query) answered \(response)")
            }
            return body.count
        }
        let email = landmarks.customerEmail.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let figures = [
            try await measure("HTTP GET /api/admin/orders?limit=50 (bytes)", scale: scale) {
                try await list("limit=\(orderPageSize)")
            },
            try await measure("HTTP GET /api/admin/orders?q=<email> (bytes)", scale: scale) {
                try await list("limit=\(orderPageSize)&q=\(email)")
            },
        ]
        session.invalidateAndCancel()
        await store.stop()
        return figures
    } catch {
        await store.stop()
        throw error
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body` with the URL of a fresh schema on the server at `base`, dropped afterwards unless
/// `keep` is set.
func withFreshSchema(_ base: String, keep: Bool, _ body: (String) async throws -> Void) async throws {
    let schema = "bench_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
    try PostgresConnection(url: base).executeScript("CREATE SCHEMA \(schema)")
    let url = base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    do {
        try await body(url)
    } catch {
        if !keep { try? PostgresConnection(url: base).executeScript("DROP SCHEMA \(schema) CASCADE") }
        throw error
    }
    if keep {
        print("kept: schema \(schema), \(url)")
    } else {
        try PostgresConnection(url: base).executeScript("DROP SCHEMA \(schema) CASCADE")
    }
}

func report(_ name: String, _ figures: [Latency], scale: Scale) {
    print("")
    print("\(name): \(scale.runs) calls each after \(scale.warmUp) unmeasured, one at a time")
    print("| call | matches | p50 | p99 | max |")
    print("|---|---|---|---|---|")
    for figure in figures {
        print(
            "| \(figure.label) | \(figure.matches) | \(figure.p50.milliseconds) | \(figure.p99.milliseconds) "
                + "| \(figure.maximum.milliseconds) |")
    }
}

/// Builds the shop on each backend and prints its figures.
func run(scale: Scale, keep: Bool) async throws {
    let now = Date()
    print(
        "Shop: \(scale.products) products, \(scale.customers) customers, \(scale.orders) orders over "
            + "\(scale.days) days; pages of \(orderPageSize).")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-bench-\(UUID().uuidString)")
    defer {
        if keep {
            print("kept: sqlite:\(directory.path)/bench.sqlite")
        } else {
            try? FileManager.default.removeItem(at: directory)
        }
    }
    let sqliteName = "SQLite (WAL, synchronous=FULL)"
    report(
        sqliteName,
        try await benchmark(sqliteName, url: "sqlite:\(directory.path)/bench.sqlite", scale: scale, now: now),
        scale: scale)
    if let url = ProcessInfo.processInfo.environment["STORE_BENCH_POSTGRES_URL"], !url.isEmpty {
        let postgresName = "PostgreSQL 15"
        try await withFreshSchema(url, keep: keep) { schemaURL in
            report(
                postgresName, try await benchmark(postgresName, url: schemaURL, scale: scale, now: now), scale: scale)
        }
    } else {
        print("PostgreSQL skipped: STORE_BENCH_POSTGRES_URL is not set (make bench starts a server)")
    }
}

try await run(
    scale: CommandLine.arguments.contains("--quick") ? .quick : Scale(), keep: CommandLine.arguments.contains("--keep"))
