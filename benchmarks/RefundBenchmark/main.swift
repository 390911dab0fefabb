import CheckoutKit
import Foundation
import PaymentProvider
import PostgresDriver
import StoreDatabase
import StoreSQL
import StoreServices

// Refunds through the real service, database and sandbox provider (docs/BEHAVIOUR.md §14): a fresh
// database (SQLite, and PostgreSQL when STORE_BENCH_POSTGRES_URL is set) gets the demo data and
// 4,000 paid orders of two units each (inserted in bulk, each charged at the sandbox through its
// API). Then: one unit of each of 1,000 orders refunded one at a time (latency); the second unit
// of 2,000 others refunded by 64 callers at once (throughput, latency); and 20 goodwill refunds at
// once on each of 50 orders, of which 4 fit (the lock on the order, contended). Run with
// `make bench`; `--quick` runs a tenth.

struct Scale {
    var orders = 4_000
    var sequential = 1_000
    var concurrent = 2_000
    var callers = 64
    var contendedOrders = 50

    static let quick = Scale(orders: 400, sequential: 100, concurrent: 200, callers: 64, contendedOrders: 5)
}

struct Figures {
    let label: String
    let samples: [Duration]
    let elapsed: Duration
    let succeeded: Int

    func quantile(_ fraction: Double) -> Duration {
        let sorted = samples.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    var perSecond: Double {
        let (seconds, attoseconds) = elapsed.components
        return Double(samples.count) / (Double(seconds) + Double(attoseconds) / 1e18)
    }
}

extension Duration {
    var milliseconds: String {
        let (seconds, attoseconds) = components
        return String(format: "%.2f ms", Double(seconds) * 1_000 + Double(attoseconds) / 1e15)
    }
}

/// Whole orders: an attempt, the order, its one line of two units, its 'paid' event — and the
/// sandbox's charge, made through its API under the attempt's id.
func populate(_ database: StoreDatabase, provider: SandboxProvider, orders: Int, now: Date) async throws -> [OrderID] {
    let at = Int64(now.timeIntervalSince1970 * 1_000)
    let price: Int64 = 24_95
    let total = 2 * price
    let shopper = "shp_bench"
    var ids: [OrderID] = []
    var statements = ["INSERT INTO shoppers (id, customer_id, created_at) VALUES ('\(shopper)', NULL, \(at))"]
    var charges: [ChargeRequest] = []
    for index in 0..<orders {
        let order = OrderID.random()
        let attempt = OpaqueIdentifier.make(prefix: "pay_")
        ids.append(order)
        charges.append(
            ChargeRequest(
                key: attempt, amount: Money(minorUnits: total, currency: .eur),
                method: .card(SandboxCard.visa.token)))
        statements.append(
            """
            INSERT INTO payment_attempts (
                id, shopper_id, idempotency_key, request_fingerprint, state, currency, subtotal_minor, discount_minor,
                shipping_minor, fee_minor, amount_minor, payment_method, payment_token, lease_expires_at,
                may_have_charged, response_status, response_body, order_id, created_at, updated_at, basket_version)
            VALUES ('\(attempt)', '\(shopper)', 'key-\(index)', 'bench', 'succeeded', 'EUR', \(total), 0, 0, 0, \(total),
                    'card', 'tok_visa', \(at), 1, 201, '{}', '\(order.rawValue)', \(at), \(at), 0)
            """)
        statements.append(
            """
            INSERT INTO orders (
                id, shopper_id, attempt_id, status, currency, subtotal_minor, discount_minor, shipping_minor, fee_minor,
                total_minor, payment_method, card_brand, created_at)
            VALUES ('\(order.rawValue)', '\(shopper)', '\(attempt)', 'paid', 'EUR', \(total), 0, 0, 0, \(total),
                    'card', 'visa', \(at))
            """)
        statements.append(
            """
            INSERT INTO order_lines (order_id, position, product_id, title, unit_price_minor, quantity, line_total_minor)
            VALUES ('\(order.rawValue)', 0, 1, 'Bench product', \(price), 2, \(total))
            """)
        statements.append(
            "INSERT INTO order_events (order_id, at, kind, actor) VALUES ('\(order.rawValue)', \(at), 'paid', 'customer')"
        )
    }
    let script = statements
    try await database.sql.write { connection in
        for statement in script { try connection.executeScript(statement) }
    }
    for charge in charges {
        guard case .approved = try await provider.charge(charge) else { throw BenchmarkError("charge declined") }
    }
    return ids
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `work` for each of `items` with `callers` at once; each call timed.
func timed<Item: Sendable>(
    _ label: String, _ items: [Item], callers: Int, _ work: @escaping @Sendable (Item) async throws -> Bool
) async throws -> Figures {
    let clock = ContinuousClock()
    let start = clock.now
    var samples: [Duration] = []
    var succeeded = 0
    try await withThrowingTaskGroup(of: (Duration, Bool).self) { group in
        var next = 0
        func add() {
            guard next < items.count else { return }
            let item = items[next]
            next += 1
            group.addTask {
                let begun = ContinuousClock.now
                let ok = try await work(item)
                return (ContinuousClock.now - begun, ok)
            }
        }
        for _ in 0..<min(callers, items.count) { add() }
        while let (duration, ok) = try await group.next() {
            samples.append(duration)
            if ok { succeeded += 1 }
            add()
        }
    }
    return Figures(label: label, samples: samples, elapsed: clock.now - start, succeeded: succeeded)
}

func run(_ name: String, url: String, ledgerURL: String, scale: Scale) async throws {
    let database = try await StoreDatabase.open(url: url, hasher: .minimal)
    let ledger = try await StoreDatabase.openUnmigrated(url: ledgerURL)
    let provider = try await SandboxProvider.open(ledger: ledger.sql)
    let refunds = RefundService(database: database, provider: provider, clock: .system, stockChanged: {})
    let orders = try await populate(database, provider: provider, orders: scale.orders, now: Date())
    let staff = AuditActor.commandLine
    guard let reason = RefundReason(kind: .damaged, note: nil),
        let goodwill = RefundReason(kind: .goodwill, note: nil)
    else { throw BenchmarkError("reason") }
    let oneUnit = RefundSelection.lines([.init(position: 0, quantity: 1, restock: true)], shipping: false)

    @Sendable func refund(_ order: OrderID, _ selection: RefundSelection, _ reason: RefundReason) async throws -> Bool {
        do {
            let result = try await refunds.refund(order, selection, reason: reason, key: .random(), by: staff)
            return result.refund.state == .succeeded
        } catch RefundRecordError.plan(.exceedsRemaining) {
            return false
        }
    }

    var figures: [Figures] = []
    figures.append(
        try await timed("one unit, one refund at a time", Array(orders.prefix(scale.sequential)), callers: 1) {
            try await refund($0, oneUnit, reason)
        })
    let spread = Array(orders.dropFirst(scale.sequential).prefix(scale.concurrent))
    figures.append(
        try await timed("one unit, \(scale.callers) callers at once", spread, callers: scale.callers) {
            try await refund($0, oneUnit, reason)
        })
    // 20 goodwill refunds of a fifth plus a cent at once on one order: 4 fit, 16 are refused.
    let contended = Array(orders.suffix(scale.contendedOrders))
    let part = Money(minorUnits: 2 * 24_95 / 5 + 1, currency: .eur)
    var contention: [Duration] = []
    var fitted = 0
    let clock = ContinuousClock()
    let contentionStart = clock.now
    for order in contended {
        let round = try await timed("", Array(repeating: order, count: 20), callers: 20) {
            try await refund($0, .goodwill(part), goodwill)
        }
        contention += round.samples
        fitted += round.succeeded
    }
    figures.append(
        Figures(
            label: "20 at once on one order (\(scale.contendedOrders) orders)", samples: contention,
            elapsed: clock.now - contentionStart, succeeded: fitted))

    let given = try await provider.refunds().filter { $0.refundID != nil }.count
    print("")
    print("\(name): \(scale.orders) orders paid; the provider made \(given) refunds")
    print("| refunds | requests | succeeded | requests/s | p50 | p99 |")
    print("|---|---|---|---|---|---|")
    for figure in figures {
        print(
            "| \(figure.label) | \(figure.samples.count) | \(figure.succeeded) | "
                + String(format: "%.0f", figure.perSecond)
                + " | \(figure.quantile(0.5).milliseconds) | \(figure.quantile(0.99).milliseconds) |")
    }
    await provider.close()
    await database.close()
}

let arguments = CommandLine.arguments.dropFirst()
let scale = arguments.contains("--quick") ? Scale.quick : Scale()
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-refund-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let file = directory.appendingPathComponent("store.sqlite").path
try await run("SQLite", url: "sqlite:\(file)", ledgerURL: "sqlite:\(file).sandbox-provider", scale: scale)

if let base = ProcessInfo.processInfo.environment["STORE_BENCH_POSTGRES_URL"], !base.isEmpty {
    let schema = "bench_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
    try PostgresConnection(url: base).executeScript("CREATE SCHEMA \(schema)")
    let url = base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    do {
        try await run("PostgreSQL", url: url, ledgerURL: url, scale: scale)
    } catch {
        try? PostgresConnection(url: base).executeScript("DROP SCHEMA \(schema) CASCADE")
        throw error
    }
    try PostgresConnection(url: base).executeScript("DROP SCHEMA \(schema) CASCADE")
}
