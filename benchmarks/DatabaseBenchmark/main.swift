import CheckoutKit
import Foundation
import StoreDatabase
import StoreSQL

// Order placement transactions per second on SQLite (synchronous=FULL) and PostgreSQL, beside a raw
// single-row insert on the same database in the same run. Each figure is measured one at a time
// (every commit waits for the previous one) and with 64 callers in flight (group commit on SQLite,
// the connection pool on PostgreSQL); and once more with 64 in flight where one order in four is
// refused for want of stock, whose write fails inside a batch (on SQLite the batch then runs again
// with a savepoint per write). Run with `make bench`.

let orders = 2_000
let inserts = 4_000
let inFlight = 64

struct Figure {
    let label: String
    let count: Int
    let elapsed: Duration

    var perSecond: Int {
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        return Int(Int64(count) * 1_000_000_000 / max(1, nanoseconds))
    }
}

func measure(
    _ label: String, count: Int, concurrency: Int, _ operation: @escaping @Sendable (Int) async throws -> Void
)
    async throws -> Figure
{
    let clock = ContinuousClock()
    let start = clock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        var next = 0
        while next < min(concurrency, count) {
            let index = next
            group.addTask { try await operation(index) }
            next += 1
        }
        while try await group.next() != nil {
            if next < count {
                let index = next
                group.addTask { try await operation(index) }
                next += 1
            }
        }
    }
    return Figure(label: label, count: count, elapsed: clock.now - start)
}

func benchmark(_ name: String, url: String) async throws -> [Figure] {
    let database = try await StoreDatabase.open(url: url, hasher: .minimal)
    try await database.sql.write { connection in
        try connection.executeScript("CREATE TABLE bench_rows (id BIGINT PRIMARY KEY, note TEXT NOT NULL)")
        try connection.execute("UPDATE products SET stock = 1000000")
        // Sold out: a basket holding it is refused when the order is placed.
        try connection.execute("UPDATE products SET stock = 0 WHERE id = 4")
    }
    // Shoppers with a basket of three lines and a promotion, prepared before the clock starts.
    let now = Date()
    guard let run10Code = PromotionCode("RUN10") else { fatalError("RUN10 is a valid code") }
    let run10 = try await database.promotions.promotion(run10Code)
    var attempts: [NewPaymentAttempt] = []
    for index in 0..<(orders * 3) {
        let shopper = try await database.sessions.createAnonymousSession(
            tokenHash: Array("bench-\(index)".utf8), now: now, expiresAt: now.addingTimeInterval(3_600))
        // In the third run, one basket in four holds the sold-out product.
        let soldOut = index >= orders * 2 && index % 4 == 0
        for product in soldOut ? [Int64(1), 2, 4] : [Int64(1), 2, 3] {
            _ = try await database.baskets.setQuantity(
                Quantity(Int(product)) ?? .one, of: ProductID(product), for: shopper, now: now)
        }
        try await database.baskets.setPromotion(run10Code, for: shopper, now: now)
        let basket = try await database.baskets.basket(for: shopper)
        let quote = try CheckoutQuote(
            lines: basket.basketLines, promotion: run10, tier: .free, shipping: .standard, fees: .standard,
            method: .qrCode)
        attempts.append(
            NewPaymentAttempt(
                id: .random(), shopperID: shopper, key: .random(), fingerprint: "bench", quote: quote,
                basketVersion: basket.version, leaseExpiresAt: now.addingTimeInterval(60)))
    }
    let payments = database.payments
    let place: @Sendable (NewPaymentAttempt) async throws -> Void = { attempt in
        let outcome: ReservationOutcome
        do {
            outcome = try await payments.reserve(attempt, now: Date())
        } catch CheckoutError.outOfStock {
            return
        }
        guard case .reserved(let record) = outcome else {
            throw BenchmarkError("an order was not reserved")
        }
        let order = record.order(id: .random(), cardBrand: nil, createdAt: Date())
        _ = try await payments.recordPaid(
            record, order: order, response: StoredResponse(status: 201, body: "{}"),
            event: .paymentFinished(method: record.method, succeeded: true), now: Date())
    }
    let sql = database.sql
    let frozen = attempts
    var figures: [Figure] = []
    figures.append(
        try await measure("\(name) raw single-row insert, one at a time", count: inserts, concurrency: 1) { index in
            _ = try await sql.write { try $0.execute("INSERT INTO bench_rows VALUES (\(index), 'x')") }
        })
    figures.append(
        try await measure("\(name) raw single-row insert, \(inFlight) in flight", count: inserts, concurrency: inFlight)
        {
            index in
            _ = try await sql.write { try $0.execute("INSERT INTO bench_rows VALUES (\(inserts + index), 'x')") }
        })
    figures.append(
        try await measure("\(name) order placement, one at a time", count: orders, concurrency: 1) { index in
            try await place(frozen[index])
        })
    figures.append(
        try await measure("\(name) order placement, \(inFlight) in flight", count: orders, concurrency: inFlight) {
            index in
            try await place(frozen[orders + index])
        })
    figures.append(
        try await measure(
            "\(name) order placement, \(inFlight) in flight, 1 in 4 refused (out of stock)", count: orders,
            concurrency: inFlight
        ) { index in
            try await place(frozen[orders * 2 + index])
        })
    await database.close()
    return figures
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-bench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }
var figures = try await benchmark("SQLite (WAL, synchronous=FULL)", url: "sqlite:\(directory.path)/bench.sqlite")
if let url = ProcessInfo.processInfo.environment["STORE_BENCH_POSTGRES_URL"], !url.isEmpty {
    figures += try await benchmark("PostgreSQL 15 (synchronous_commit=on)", url: url)
} else {
    print("PostgreSQL skipped: STORE_BENCH_POSTGRES_URL is not set (make bench starts a server)")
}
print("Order placement = reserve stock and promotion + record the paid order, basket emptied (2 transactions).")
for figure in figures {
    print("\(figure.label): \(figure.perSecond)/s (\(figure.count) in \(figure.elapsed))")
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
