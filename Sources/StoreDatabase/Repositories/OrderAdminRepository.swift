import CheckoutKit
import Foundation
import StoreSQL

/// What the back office's order list is narrowed to; every part left `nil` is no narrowing.
public struct OrderListFilter: Hashable, Sendable {
    public var payment: PaymentStatus?
    public var fulfilment: FulfilmentStatus?
    /// Orders placed at this instant or later.
    public var placedFrom: Date?
    /// Orders placed before this instant (excluded).
    public var placedBefore: Date?
    /// An order id or the start of one (`ord_…`, any case), or part of a customer's email (any
    /// case).
    public var search: String?

    public init(
        payment: PaymentStatus? = nil, fulfilment: FulfilmentStatus? = nil, placedFrom: Date? = nil,
        placedBefore: Date? = nil, search: String? = nil
    ) {
        self.payment = payment
        self.fulfilment = fulfilment
        self.placedFrom = placedFrom
        self.placedBefore = placedBefore
        self.search = search
    }
}

/// One order in the back office's list.
public struct OrderSummary: Hashable, Sendable, Identifiable {
    public let id: OrderID
    public let createdAt: Date
    /// The customer's email, or `nil` for a guest's order.
    public let customerEmail: String?
    /// What was charged, fee included.
    public let total: Money
    public let paymentStatus: PaymentStatus
    public let fulfilment: FulfilmentStatus
    /// Units bought, over every line.
    public let itemCount: Int
}

/// One page of the back office's order list.
public struct OrderSummaryPage: Hashable, Sendable {
    /// Newest first.
    public let orders: [OrderSummary]
    /// How many orders match, over every page.
    public let total: Int
}

/// The customer who placed an order.
public struct OrderCustomer: Hashable, Sendable {
    public let id: CustomerID
    public let email: String
    /// First and last name, `nil` when the account has neither.
    public let name: String?
}

/// One line of an order's timeline.
public struct OrderEvent: Hashable, Sendable {
    /// What happened: `paid`, `packed`, `shipped`, `delivered` (and the refunds' kinds).
    public let kind: String
    public let at: Date
    /// Who: `customer` for the payment, a member of staff's email for a step.
    public let actor: String
    /// The tracking number, for `shipped`.
    public let detail: String?
}

/// An order as the back office reads it: what was bought and charged, who bought it, where its
/// payment and its parcel stand, and everything that happened to it.
public struct ManagedOrder: Hashable, Sendable, Identifiable {
    /// The order as charged: lines, amounts, payment method, time.
    public let order: Order
    public let paymentStatus: PaymentStatus
    public let fulfilment: FulfilmentStatus
    /// Recorded when the order was shipped.
    public let trackingNumber: String?
    /// `nil` for an order a guest placed without logging in.
    public let customer: OrderCustomer?
    /// Oldest first: every refund asked for, pending, succeeded or failed.
    public let refunds: [Refund]
    /// Oldest first; the payment opens it.
    public let timeline: [OrderEvent]

    public var id: OrderID { order.id }
}

/// Why an order was not moved as asked; nothing was written.
public enum FulfilmentChangeError: Error, Hashable, Sendable {
    /// There is no order with that id.
    case notFound
    /// The order's state, `current`, does not allow the step.
    case invalidTransition(current: FulfilmentStatus)
    /// The order is no longer in the state the step was chosen from: it is `current` now.
    case movedMeanwhile(current: FulfilmentStatus)

    /// The order's state when the step was refused, when there is one.
    public var current: FulfilmentStatus? {
        switch self {
        case .notFound: nil
        case .invalidTransition(let current), .movedMeanwhile(let current): current
        }
    }
}

/// Every order, as the back office lists, reads and moves them (docs/BEHAVIOUR.md §13.8). A step
/// is one conditional `UPDATE` that names the state it starts from, its timeline line and its
/// audit line, in one transaction: two people marking one order at once move it once.
public struct OrderAdminRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// An order's payment status, derived here and nowhere else, as an SQL expression over the
    /// order's row named `o` (every query here names it so): from what its succeeded refunds gave
    /// back (docs/BEHAVIOUR.md §14). The list's filter and every answer read it, so they cannot
    /// disagree.
    static let paymentStatus: SQLQuery = """
        CASE WHEN o.refunded_minor >= o.total_minor THEN 'refunded' \
        WHEN o.refunded_minor > 0 THEN 'partially_refunded' ELSE 'paid' END
        """

    /// The orders matching `filter`, newest first (then by id), `limit` of them from `offset`,
    /// and how many match in all. The order of the list is the `orders_by_time` index read
    /// backwards (`orders_by_fulfilment` with a fulfilment status), so a page costs its rows.
    public func list(_ filter: OrderListFilter, offset: Int, limit: Int) async throws -> OrderSummaryPage {
        let conditions = Self.conditions(filter)
        let filtered: SQLQuery =
            conditions.isEmpty ? "" : "WHERE \(SQLQuery.joined(conditions, separator: " AND "))"
        return try await database.read { connection in
            // The count and the page at one moment (one round trip on PostgreSQL). The page is
            // chosen first, so only its rows are joined to their customers and their lines counted.
            let answers = try connection.queryTogether([
                "SELECT COUNT(*) AS n FROM orders o \(filtered)",
                """
                SELECT o.id, o.created_at, o.currency, o.total_minor, o.fulfilment_status,
                       \(Self.paymentStatus) AS payment_status, c.email AS customer_email,
                       (SELECT CAST(COALESCE(SUM(l.quantity), 0) AS BIGINT) FROM order_lines l
                        WHERE l.order_id = o.id) AS item_count
                FROM (
                    SELECT o.id, o.created_at, o.currency, o.total_minor, o.fulfilment_status, o.refunded_minor,
                           o.shopper_id
                    FROM orders o \(filtered)
                    ORDER BY o.created_at DESC, o.id DESC
                    LIMIT \(limit) OFFSET \(offset)
                ) o
                LEFT JOIN shoppers s ON s.id = o.shopper_id
                LEFT JOIN customers c ON c.id = s.customer_id
                ORDER BY o.created_at DESC, o.id DESC
                """,
            ])
            let orders = try answers[1].map { row in
                OrderSummary(
                    id: OrderID(rawValue: try row.decode("id")), createdAt: try row.date("created_at"),
                    customerEmail: try row.decode("customer_email"), total: try row.money("total_minor"),
                    paymentStatus: try Self.paymentStatus(row), fulfilment: try Self.fulfilment(row),
                    itemCount: try row.decode("item_count"))
            }
            return OrderSummaryPage(orders: orders, total: try answers[0].first?.decode("n", as: Int.self) ?? 0)
        }
    }

    /// The order `id` with its lines, customer and timeline; `nil` when there is none.
    public func order(_ id: OrderID) async throws -> ManagedOrder? {
        try await database.read { connection in try Self.order(id, on: connection) }
    }

    /// Where order `id` is on its way, `nil` when there is no such order.
    public func fulfilment(of id: OrderID) async throws -> FulfilmentStatus? {
        try await database.read { connection in try Self.fulfilment(of: id, on: connection) }
    }

    /// Takes order `id` one `step` on from `expected`: one conditional `UPDATE` that applies only
    /// while the order is still in `expected`, its timeline line (the tracking number beside
    /// `shipped`) and its audit line (`order.fulfilment`, the status and tracking number before
    /// and after), in one transaction. Returns the order as it now is.
    ///
    /// - Throws: ``FulfilmentChangeError/notFound``; ``FulfilmentChangeError/movedMeanwhile(current:)``
    ///   when the order is no longer in `expected` (another step came first);
    ///   ``FulfilmentChangeError/invalidTransition(current:)`` when its state does not allow the
    ///   step. Either way nothing is written.
    public func move(
        _ id: OrderID, from expected: FulfilmentStatus, to step: FulfilmentStep, by actor: AuditActor, now: Date
    ) async throws -> ManagedOrder {
        try await database.write { connection in
            try Self.move(id, from: expected, to: step, by: actor, now: now, on: connection)
        }
    }

    // MARK: Building blocks for transactions

    static func move(
        _ id: OrderID, from expected: FulfilmentStatus, to step: FulfilmentStep, by actor: AuditActor, now: Date,
        on connection: any SQLConnection
    ) throws -> ManagedOrder {
        // On PostgreSQL the row is locked, so two steps on one order queue here and the second
        // reads the first's outcome; SQLite has one writer.
        let lock: SQLQuery = connection.dialect == .postgres ? " FOR UPDATE" : ""
        guard
            let before = try connection.queryFirst(
                "SELECT fulfilment_status, tracking_number FROM orders WHERE id = \(id.rawValue)\(lock)")
        else { throw FulfilmentChangeError.notFound }
        let current = try fulfilment(before)
        let trackingBefore: String? = try before.decode("tracking_number")
        let target = step.target
        guard current == expected else { throw FulfilmentChangeError.movedMeanwhile(current: current) }
        guard expected.mayMove(to: target) else { throw FulfilmentChangeError.invalidTransition(current: current) }
        let tracking: SQLQuery = step.trackingNumber.map { ", tracking_number = \($0.rawValue)" } ?? ""
        let changed = try connection.execute(
            """
            UPDATE orders SET fulfilment_status = \(target.rawValue)\(tracking)
            WHERE id = \(id.rawValue) AND fulfilment_status = \(expected.rawValue)
            """)
        guard changed == 1 else {
            guard let latest = try fulfilment(of: id, on: connection) else { throw FulfilmentChangeError.notFound }
            throw FulfilmentChangeError.movedMeanwhile(current: latest)
        }
        try connection.execute(
            """
            INSERT INTO order_events (order_id, at, kind, staff_id, actor, detail)
            VALUES (\(id.rawValue), \(now.unixMilliseconds), \(target.rawValue), \(actor.staffID?.rawValue),
                    \(actor.name), \(step.trackingNumber?.rawValue))
            """)
        let trackingAfter = step.trackingNumber?.rawValue ?? trackingBefore
        try AuditRepository.record(
            .orderFulfilment, subject: "order:\(id.rawValue)", by: actor,
            before: AuditValues.object(
                ["fulfilment_status": expected.rawValue, "tracking_number": trackingBefore].compactMapValues { $0 }),
            after: AuditValues.object(
                ["fulfilment_status": target.rawValue, "tracking_number": trackingAfter].compactMapValues { $0 }),
            at: now, on: connection)
        guard let moved = try order(id, on: connection) else { throw FulfilmentChangeError.notFound }
        return moved
    }

    static func fulfilment(of id: OrderID, on connection: any SQLConnection) throws -> FulfilmentStatus? {
        try connection.queryFirst("SELECT fulfilment_status FROM orders WHERE id = \(id.rawValue)").map(fulfilment)
    }

    static func order(_ id: OrderID, on connection: any SQLConnection) throws -> ManagedOrder? {
        guard
            let row = try connection.queryFirst(
                """
                SELECT \(OrderRepository.columns), o.fulfilment_status, o.tracking_number,
                       \(paymentStatus) AS payment_status,
                       c.id AS customer_id, c.email AS customer_email, c.first_name, c.last_name
                FROM orders o
                LEFT JOIN shoppers s ON s.id = o.shopper_id
                LEFT JOIN customers c ON c.id = s.customer_id
                WHERE o.id = \(id.rawValue)
                """)
        else { return nil }
        let lines = try connection.query(
            """
            SELECT product_id, title, unit_price_minor, quantity, line_total_minor FROM order_lines
            WHERE order_id = \(id.rawValue) ORDER BY position
            """)
        let timeline = try connection.query(
            "SELECT kind, at, actor, detail FROM order_events WHERE order_id = \(id.rawValue) ORDER BY id"
        ).map { event in
            OrderEvent(
                kind: try event.decode("kind"), at: try event.date("at"), actor: try event.decode("actor"),
                detail: try event.decode("detail"))
        }
        let customer = try row.decode("customer_id", as: Int64?.self).map { customerID in
            let name = [try row.decode("first_name", as: String?.self), try row.decode("last_name", as: String?.self)]
                .compactMap { $0?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                .joined(separator: " ")
            return OrderCustomer(
                id: CustomerID(rawValue: customerID), email: try row.decode("customer_email"),
                name: name.isEmpty ? nil : name)
        }
        return ManagedOrder(
            order: try OrderRepository.order(row, lines: lines), paymentStatus: try paymentStatus(row),
            fulfilment: try fulfilment(row), trackingNumber: try row.decode("tracking_number"), customer: customer,
            refunds: try RefundRepository.refunds(of: id, on: connection), timeline: timeline)
    }

    /// The `WHERE` conditions of `filter`, each able to use an index: the fulfilment status and
    /// the days through `orders_by_fulfilment` or `orders_by_time`, an id through the primary key
    /// (an id's start is the range of the ids that begin with it), an email through the
    /// customers it matches and `orders_by_shopper`.
    static func conditions(_ filter: OrderListFilter) -> [SQLQuery] {
        var conditions: [SQLQuery] = []
        if let fulfilment = filter.fulfilment { conditions.append("o.fulfilment_status = \(fulfilment.rawValue)") }
        if let payment = filter.payment { conditions.append("\(paymentStatus) = \(payment.rawValue)") }
        if let from = filter.placedFrom { conditions.append("o.created_at >= \(from.unixMilliseconds)") }
        if let before = filter.placedBefore { conditions.append("o.created_at < \(before.unixMilliseconds)") }
        if let search = filter.search?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased(), !search.isEmpty {
            let pattern = "%" + ProductRepository.likeEscaped(search) + "%"
            let email: SQLQuery = """
                o.shopper_id IN (
                    SELECT s.id FROM shoppers s JOIN customers c ON c.id = s.customer_id
                    WHERE LOWER(c.email) LIKE \(pattern) ESCAPE '\\')
                """
            if let ids = idRange(startingWith: search) {
                // A union of two index lookups: PostgreSQL reads every order for the same two
                // conditions joined by OR (docs/BENCHMARKS.md, "Back office at shop scale").
                conditions.append(
                    """
                    o.id IN (
                        SELECT i.id FROM orders i WHERE i.id BETWEEN \(ids.lowest) AND \(ids.highest)
                        UNION
                        SELECT e.id FROM orders e WHERE e.shopper_id IN (
                            SELECT s.id FROM shoppers s JOIN customers c ON c.id = s.customer_id
                            WHERE LOWER(c.email) LIKE \(pattern) ESCAPE '\\'))
                    """)
            } else {
                conditions.append(email)
            }
        }
        return conditions
    }

    /// The lowest and highest order ids that begin with `text` (`ord_` and at least one more
    /// character of an id), `nil` when no id can. Every id is `ord_` and 26 characters of one
    /// alphabet, whose order is the same in every collation, so the range is exactly the ids with
    /// that start.
    static func idRange(startingWith text: String) -> (lowest: String, highest: String)? {
        let prefix = "ord_"
        guard text.hasPrefix(prefix), (prefix.count + 1...prefix.count + 26).contains(text.count) else { return nil }
        let rest = text.dropFirst(prefix.count)
        guard rest.allSatisfy({ idAlphabet.contains($0) }) else { return nil }
        let missing = 26 - rest.count
        return (
            text + String(repeating: idAlphabet.first ?? "0", count: missing),
            text + String(repeating: idAlphabet.last ?? "z", count: missing)
        )
    }

    /// The characters of an id after `ord_`, in their order (``CheckoutKit/OpaqueIdentifier``).
    static let idAlphabet = Array("0123456789abcdefghjkmnpqrstvwxyz")

    static func fulfilment(_ row: SQLRow) throws -> FulfilmentStatus {
        guard let status = FulfilmentStatus(rawValue: try row.decode("fulfilment_status")) else {
            throw DatabaseError.decoding(column: "fulfilment_status", expected: "a fulfilment status")
        }
        return status
    }

    static func paymentStatus(_ row: SQLRow) throws -> PaymentStatus {
        guard let status = PaymentStatus(rawValue: try row.decode("payment_status")) else {
            throw DatabaseError.decoding(column: "payment_status", expected: "a payment status")
        }
        return status
    }
}
