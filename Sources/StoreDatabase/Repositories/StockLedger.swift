import CheckoutKit
import Foundation
import StoreSQL

/// Who moved stock: the shop itself (a sale, a payment given up) or a person.
public enum StockMover: Hashable, Sendable {
    /// The checkout: units taken for a payment, or given back when it did not go through.
    case shop
    /// A member of staff, the command line, the demo data.
    case person(AuditActor)

    var actor: AuditActor? {
        if case .person(let actor) = self { return actor }
        return nil
    }

    /// How the ledger names them.
    var name: String { actor?.name ?? "shop" }
}

/// A change of one product's stock: units in (positive) or out (negative).
struct StockMove: Hashable, Sendable {
    let product: ProductID
    let change: Int
}

/// One line of a product's stock ledger.
public struct StockMovement: Hashable, Sendable {
    public let id: Int64
    public let productID: ProductID
    /// Units in (positive) or out (negative).
    public let change: Int
    public let reason: StockReason
    public let note: String?
    /// Who: a member of staff's email, `shop` for a sale, `command line`, `demo data`.
    public let actor: String
    /// The order a sale became, once paid.
    public let orderID: OrderID?
    /// The stock once this line was written.
    public let stockAfter: Int
    public let at: Date
}

/// The stock ledger (docs/BEHAVIOUR.md §13.6): every change of a product's stock — a member of
/// staff's adjustment, a sale, a payment given up — is one line, written in the same transaction
/// as the change, so the stock is always the sum of its lines. Stock is never overwritten
/// and never goes below zero: the change is applied only where the result is at least zero, in
/// one conditional `UPDATE` that concurrent transactions queue on.
public enum StockLedger {
    /// Moves `product`'s stock by `change` and writes the ledger line; returns the new stock, or
    /// `nil` (nothing written) when there is no such product, the result would be below zero, or
    /// `onlyIfActive` and the product is archived.
    @discardableResult
    static func move(
        _ product: ProductID, by change: Int, reason: StockReason, note: String?, actor: StockMover,
        attempt: AttemptID? = nil, refund: RefundID? = nil, requestKey: IdempotencyKey? = nil, onlyIfActive: Bool,
        now: Date,
        on connection: any SQLConnection
    ) throws -> Int? {
        try moveEach(
            [StockMove(product: product, change: change)], reason: reason, note: note, actor: actor,
            attempt: attempt, refund: refund, requestKey: requestKey, onlyIfActive: onlyIfActive, now: now,
            on: connection
        ).first ?? nil
    }

    /// Moves several products' stock, in the order given, as ``move(_:by:reason:note:actor:attempt:refund:requestKey:onlyIfActive:now:on:)``
    /// does one: returns each one's new stock, or `nil` where nothing was written.
    @discardableResult
    static func moveEach(
        _ moves: [StockMove], reason: StockReason, note: String?, actor: StockMover, attempt: AttemptID? = nil,
        refund: RefundID? = nil, requestKey: IdempotencyKey? = nil, onlyIfActive: Bool, now: Date,
        on connection: any SQLConnection
    ) throws -> [Int?] {
        let stocks = try apply(moves, onlyIfActive: onlyIfActive, on: connection)
        try record(
            moves, stocks: stocks, reason: reason, note: note, actor: actor, attempt: attempt, refund: refund,
            requestKey: requestKey, now: now, on: connection)
        return stocks
    }

    /// Makes each move's conditional update, in the order given (so rows are locked in that
    /// order), and returns each product's new stock, or `nil` where the update changed nothing;
    /// ``record(_:stocks:reason:note:actor:attempt:refund:requestKey:now:on:)`` then writes the
    /// ledger lines.
    ///
    /// PostgreSQL gets the updates together, in one round trip, each answering its row's stock
    /// (`RETURNING`). SQLite gets each update alone, and reads the stock after one that changed its
    /// row: SQLite gathers a statement's `RETURNING` rows in a temporary table, opened and closed
    /// for every statement, which costs more than the read (docs/BENCHMARKS.md, "The writer's
    /// thread, and SQLite's `RETURNING`").
    static func apply(_ moves: [StockMove], onlyIfActive: Bool, on connection: any SQLConnection) throws -> [Int?] {
        switch connection.dialect {
        case .postgres:
            let updates = moves.map { "\(update($0, onlyIfActive: onlyIfActive)) RETURNING stock" as SQLQuery }
            return try connection.queryEach(updates).map { rows in try rows.first?.decode("stock", as: Int.self) }
        case .sqlite:
            return try moves.map { move in
                guard try connection.execute(update(move, onlyIfActive: onlyIfActive)) == 1 else { return nil }
                return try connection.queryFirst("SELECT stock FROM products WHERE id = \(move.product.rawValue)")?
                    .decode("stock", as: Int.self)
            }
        }
    }

    /// `move`'s conditional update: made only where the stock stays at least zero (and, with
    /// `onlyIfActive`, the product is not archived).
    private static func update(_ move: StockMove, onlyIfActive: Bool) -> SQLQuery {
        let active: SQLQuery = onlyIfActive ? " AND active = 1" : ""
        return """
            UPDATE products SET stock = stock + \(move.change)
            WHERE id = \(move.product.rawValue) AND stock + \(move.change) >= 0\(active)
            """
    }

    /// Each move's conditional update and its ledger line as one statement that expects the update
    /// to be made (`store_expect`, PostgreSQL only: ``Schema/version13``), for a write that sends
    /// everything with its `COMMIT` and reads no answer. A move that cannot be made aborts the
    /// transaction; the caller then takes the way that reads each answer.
    static func expectedMoves(
        _ moves: [StockMove], reason: StockReason, actor: StockMover, attempt: AttemptID?, onlyIfActive: Bool,
        now: Date
    ) -> [SQLQuery] {
        moves.map { move in
            let values = lineValues(
                move, reason: reason, note: nil, actor: actor, attempt: attempt, refund: nil, stock: "moved.stock",
                now: now, requestKey: nil)
            return """
                WITH moved AS (\(update(move, onlyIfActive: onlyIfActive)) RETURNING stock),
                line AS (INSERT INTO stock_movements (\(lineColumns)) SELECT \(values) FROM moved)
                SELECT store_expect(count(*) = 1, 'the stock for a sale') FROM moved
                """
        }
    }

    private static let lineColumns: SQLQuery = """
        product_id, change_units, reason, note, staff_id, actor, attempt_id, refund_id, stock_after, at, request_key
        """

    private static func lineValues(
        _ move: StockMove, reason: StockReason, note: String?, actor: StockMover, attempt: AttemptID?,
        refund: RefundID?, stock: SQLQuery, now: Date, requestKey: IdempotencyKey?
    ) -> SQLQuery {
        """
        \(move.product.rawValue), \(move.change), \(reason.rawValue), \(note), \(actor.actor?.staffID?.rawValue), \
        \(actor.name), \(attempt?.rawValue), \(refund?.rawValue), \(stock), \(now.unixMilliseconds), \(requestKey?.rawValue)
        """
    }

    /// Writes the ledger line of each move that ``apply(_:onlyIfActive:on:)`` made: those with a
    /// new stock in `stocks`.
    static func record(
        _ moves: [StockMove], stocks: [Int?], reason: StockReason, note: String?, actor: StockMover,
        attempt: AttemptID? = nil, refund: RefundID? = nil, requestKey: IdempotencyKey? = nil, now: Date,
        on connection: any SQLConnection
    ) throws {
        for case (let move, let stock?) in zip(moves, stocks) {
            let values = lineValues(
                move, reason: reason, note: note, actor: actor, attempt: attempt, refund: refund, stock: "\(stock)",
                now: now, requestKey: requestKey)
            try connection.executeDeferred("INSERT INTO stock_movements (\(lineColumns)) VALUES (\(values))")
        }
    }

    /// The newest lines of `product`'s ledger first, at most `limit`, before line `before` when
    /// paging. A sale names its order once the payment went through.
    static func movements(
        of product: ProductID, before: Int64?, limit: Int, on connection: any SQLConnection
    ) throws -> [StockMovement] {
        let page: SQLQuery = before.map { " AND m.id < \($0)" } ?? ""
        return try movements(where: "m.product_id = \(product.rawValue)\(page)", limit: limit, on: connection)
    }

    /// The line an adjustment sent with `key` wrote for `product`, if one did.
    static func movement(
        of product: ProductID, requestKey key: IdempotencyKey, on connection: any SQLConnection
    ) throws -> StockMovement? {
        try movements(
            where: "m.product_id = \(product.rawValue) AND m.request_key = \(key.rawValue)", limit: 1, on: connection
        ).first
    }

    private static func movements(
        where condition: SQLQuery, limit: Int, on connection: any SQLConnection
    ) throws -> [StockMovement] {
        try connection.query(
            """
            SELECT m.id, m.product_id, m.change_units, m.reason, m.note, m.actor, m.stock_after, m.at,
                   COALESCE(m.order_id, o.id) AS order_id
            FROM stock_movements m LEFT JOIN orders o ON o.attempt_id = m.attempt_id
            WHERE \(condition)
            ORDER BY m.id DESC LIMIT \(limit)
            """
        ).map { row in
            guard let reason = StockReason(rawValue: try row.decode("reason")) else {
                throw DatabaseError.decoding(column: "reason", expected: "a stock reason")
            }
            return StockMovement(
                id: try row.decode("id"), productID: ProductID(try row.decode("product_id", as: Int64.self)),
                change: try row.decode("change_units"), reason: reason, note: try row.decode("note"),
                actor: try row.decode("actor"),
                orderID: try row.decode("order_id", as: String?.self).map(OrderID.init(rawValue:)),
                stockAfter: try row.decode("stock_after"), at: try row.date("at"))
        }
    }
}
