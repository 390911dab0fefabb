import CheckoutKit
import Foundation
import StoreCrypto
import StoreDatabase
import StoreSQL

// Prepares a store database for the checkout load test and measures the raw single-commit rate
// of that same database:
//
//   CheckoutBenchmark DATABASE_URL SHOPPERS TOKEN_FILE
//
// creates SHOPPERS anonymous shoppers, each with a session and a basket of two lines, writes one
// line "TOKEN TOTAL" per shopper to TOKEN_FILE (what the load generator sends as the bearer and
// the expected_total), then prints the rate of one-row commits, one at a time, on that database.

let arguments = CommandLine.arguments
guard arguments.count == 4, let shoppers = Int(arguments[2]), shoppers > 0 else {
    FileHandle.standardError.write(Data("usage: CheckoutBenchmark DATABASE_URL SHOPPERS TOKEN_FILE\n".utf8))
    exit(64)
}
let url = arguments[1]
let tokenFile = arguments[3]

let database = try await StoreDatabase.open(url: url, hasher: .minimal)
let products = try await database.catalog.products()
_ = try await database.sql.write { try $0.execute("UPDATE products SET stock = 100000000") }

// CHECKOUT_CATALOG_EXTRA=N adds N more products to the catalog (the baskets still hold the seeded
// ones): a shop's catalog is larger than the demo's, and every sale changes what it shows.
let extra = Int(ProcessInfo.processInfo.environment["CHECKOUT_CATALOG_EXTRA"] ?? "") ?? 0
if extra > 0, let template = products.first {
    let firstID = (products.map(\.id.rawValue).max() ?? 0) + 1
    for start in stride(from: 0, to: extra, by: 2_000) {
        _ = try await database.sql.write { connection in
            for offset in start..<min(start + 2_000, extra) {
                let id = firstID + Int64(offset)
                try connection.execute(
                    """
                    INSERT INTO products (id, title, description, category, price_minor, currency, image_path,
                        rating_tenths, rating_count, stock, sku)
                    VALUES (\(id), \("Product \(id)"), \("A product of the larger catalog, described in a sentence or two."),
                        \(template.category), \(template.price.minorUnits + Int64(offset)), \(template.price.currency.code),
                        \(template.imagePath), 40, 10, 500, \("EXTRA-\(id)"))
                    """)
            }
        }
    }
}

var generator = SplitMix64(seed: 20_261_202)
var lines: [String] = []
lines.reserveCapacity(shoppers)
let now = Date()
let expires = now.addingTimeInterval(24 * 3_600)
let batchSize = 2_000
var created = 0
while created < shoppers {
    var batch: [(token: SecretToken, shopper: ShopperID, items: [(Product, Quantity)])] = []
    for _ in 0..<min(batchSize, shoppers - created) {
        var picked: [(Product, Quantity)] = []
        while picked.count < 2 {
            let product = products[Int.random(in: 0..<products.count, using: &generator)]
            if !picked.contains(where: { $0.0.id == product.id }) {
                picked.append((product, Quantity(Int.random(in: 1...3, using: &generator)) ?? .one))
            }
        }
        batch.append((SecretToken.generate(), ShopperID.random(), picked))
    }
    let rows = batch
    _ = try await database.sql.write { connection in
        for row in rows {
            try connection.execute(
                "INSERT INTO shoppers (id, customer_id, created_at) VALUES (\(row.shopper.rawValue), NULL, \(now.unixMilliseconds))"
            )
            try connection.execute(
                """
                INSERT INTO sessions (token_hash, shopper_id, created_at, expires_at)
                VALUES (\(row.token.hash), \(row.shopper.rawValue), \(now.unixMilliseconds), \(expires.unixMilliseconds))
                """)
            try connection.execute(
                "INSERT INTO baskets (shopper_id, promotion_code, updated_at) VALUES (\(row.shopper.rawValue), NULL, \(now.unixMilliseconds))"
            )
            for (position, item) in row.items.enumerated() {
                try connection.execute(
                    """
                    INSERT INTO basket_lines (shopper_id, product_id, quantity, position)
                    VALUES (\(row.shopper.rawValue), \(item.0.id.rawValue), \(item.1.value), \(position + 1))
                    """)
            }
        }
    }
    for row in batch {
        let price = try Pricing.price(
            row.items.map { BasketLine(product: $0.0, quantity: $0.1) }, promotion: nil, tier: .free,
            shipping: .standard)
        lines.append("\(row.token.text) \(price.total.amountText)")
    }
    created += batch.count
}
try (lines.joined(separator: "\n") + "\n").write(toFile: tokenFile, atomically: true, encoding: .utf8)

// The raw single-commit rate of the same database: one one-row INSERT per transaction, waiting
// for each commit before the next.
_ = try await database.sql.write {
    try $0.executeScript("CREATE TABLE IF NOT EXISTS bench_commits (id BIGINT PRIMARY KEY)")
}
let commits = 2_000
let clock = ContinuousClock()
let start = clock.now
for index in 0..<commits {
    _ = try await database.sql.write { try $0.execute("INSERT INTO bench_commits VALUES (\(index))") }
}
let elapsed = clock.now - start
let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
print("raw single-row commits, one at a time: \(Int64(commits) * 1_000_000_000 / max(1, nanoseconds))/s")
await database.close()
