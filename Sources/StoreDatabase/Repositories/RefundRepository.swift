import CheckoutKit
import Foundation
import StoreSQL

/// A refund as the store keeps it: the refund, and what settling it once needs.
public struct RefundRecord: Hashable, Sendable {
    public let refund: Refund
    /// The idempotency key of the request that asked for it (unique per order).
    public let key: String
    /// What the request asked for, to tell a replay from another request under the same key.
    public let fingerprint: String
    /// Until when the request that recorded it (or the one that took it over) works on it.
    public let leaseExpiresAt: Date
    /// The presence key of the server working on it (``ServerPresence``), if it has one.
    public let holder: Int64?
    /// The key the order's payment was charged with: what the provider refunds.
    public let chargeKey: String
    /// For a cancellation: the fulfilment state the order was in, given back if the refund fails.
    public let fulfilmentBefore: FulfilmentStatus?
    /// Who asked for it, as the audit log names them.
    public let actor: AuditActor
}

/// A refund a member of staff (or the command line) asks for.
public struct NewRefund: Hashable, Sendable {
    public let id: RefundID
    public let orderID: OrderID
    public let key: IdempotencyKey
    public let fingerprint: String
    public let selection: RefundSelection
    public let reason: RefundReason
    public let actor: AuditActor
    public let leaseExpiresAt: Date

    public init(
        id: RefundID, orderID: OrderID, key: IdempotencyKey, fingerprint: String, selection: RefundSelection,
        reason: RefundReason, actor: AuditActor, leaseExpiresAt: Date
    ) {
        self.id = id
        self.orderID = orderID
        self.key = key
        self.fingerprint = fingerprint
        self.selection = selection
        self.reason = reason
        self.actor = actor
        self.leaseExpiresAt = leaseExpiresAt
    }
}

/// What ``RefundRepository/reserve(_:now:)`` found.
public enum RefundReservation: Hashable, Sendable {
    /// Recorded as pending, its amount held against the order: ask the provider.
    case reserved(RefundRecord)
    /// The order already has a refund under this key; nothing was changed.
    case existing(RefundRecord)
    /// A cancellation with nothing left to give back: recorded as succeeded at once (restocked,
    /// cancelled), with no provider to ask.
    case settled(RefundRecord)
}

/// Why a refund was not recorded; nothing was written.
public enum RefundRecordError: Error, Hashable, Sendable {
    case orderNotFound
    /// The refund cannot be made as asked (more than remains, a line already refunded…).
    case plan(RefundPlanError)
    /// A cancellation while another refund of the order waits for the provider's answer: what it
    /// would give back and restock is not known until that one is settled.
    case refundPending
}

/// Refunds — the store's side of exactly-once refunds (docs/BEHAVIOUR.md §14, docs/DESIGN.md).
///
/// A refund is recorded as `pending` before the provider is asked, in one transaction that locks
/// the order (a row lock on PostgreSQL; SQLite has one writer), plans the refund against what
/// the order's other refunds already hold and adds its amount to the order's held sum — which
/// the database refuses past the amount charged. After the provider answers, one more transaction
/// records the outcome: succeeded → the money given back counted, the units restocked (once: only
/// the transaction that moves the refund out of `pending` does it), a cancelled order's promotion
/// use given back; failed → the hold released, a cancellation undone. A refund the provider never
/// saw is withdrawn: removed, its hold released.
public struct RefundRepository: Sendable {
    let database: any SQLDatabase
    /// The caller's presence key, written into the refunds it records and claims.
    let holder: Int64?

    /// - Parameter holder: the caller's ``ServerPresence/holder``, if it has one.
    public init(database: any SQLDatabase, holder: Int64? = nil) {
        self.database = database
        self.holder = holder
    }

    /// Records `refund` as pending and holds its amount — unless the order already has a refund
    /// under its key (`.existing`).
    ///
    /// - Throws: ``RefundRecordError``; nothing is recorded then.
    public func reserve(_ refund: NewRefund, now: Date) async throws -> RefundReservation {
        do {
            return try await database.write { connection in
                try Self.reserve(refund, holder: holder, now: now, on: connection)
            }
        } catch let error as DatabaseError where error.kind == .uniqueViolation {
            // A concurrent request with the same key committed first.
            if let existing = try await self.refund(order: refund.orderID, key: refund.key.rawValue) {
                return .existing(existing)
            }
            throw error
        }
    }

    /// What may still be refunded of order `id`, as a refund would see it now; `nil` when there is
    /// no such order.
    public func refundable(_ id: OrderID) async throws -> RefundableOrder? {
        try await database.read { connection in
            // The order's row and what its refunds hold, at one moment (one round trip on PostgreSQL).
            let answers = try connection.queryTogether(
                [Self.orderRowQuery(id, lock: false, connection.dialect)] + Self.heldQueries(id))
            guard let row = answers.first?.first else { return nil }
            return try Self.refundable(row, held: Array(answers.dropFirst()))
        }
    }

    /// Takes over a pending refund nobody works on any more (its lease ran out, or its holder's
    /// presence is gone), so that the caller may settle it.
    /// - Returns: `false` when someone else holds it or it is no longer pending.
    public func claim(_ id: RefundID, leaseExpiresAt: Date, now: Date) async throws -> Bool {
        let takeover = Takeover(holder: holder)
        return try await database.write { [holder] connection in
            try connection.execute(
                """
                UPDATE refunds SET lease_expires_at = \(leaseExpiresAt.unixMilliseconds), holder = \(holder),
                    updated_at = \(now.unixMilliseconds)
                WHERE id = \(id.rawValue) AND state = 'pending' AND \(takeover.isFree(now: now, dialect: connection.dialect))
                """) == 1
        }
    }

    /// Ends the caller's hold on a pending refund, so that the next retry or reconciliation may ask
    /// the provider about it at once.
    public func releaseLease(_ id: RefundID, now: Date) async throws {
        try await database.write { connection in
            _ = try connection.execute(
                """
                UPDATE refunds SET lease_expires_at = \(now.unixMilliseconds), updated_at = \(now.unixMilliseconds)
                WHERE id = \(id.rawValue) AND state = 'pending'
                """)
        }
    }

    /// Gives up every pending refund's lease, for a store starting on SQLite: no other server can
    /// be working on them, so reconciliation may settle them all at once.
    @discardableResult
    public func releaseAllLeases(now: Date) async throws -> Int {
        try await database.write { connection in
            try connection.execute(
                """
                UPDATE refunds SET lease_expires_at = \(now.unixMilliseconds)
                WHERE state = 'pending' AND lease_expires_at > \(now.unixMilliseconds)
                """)
        }
    }

    /// Records that the provider gave the money back. Idempotent: a refund no longer pending is
    /// returned as it is, and nothing is restocked again.
    public func recordSucceeded(_ id: RefundID, providerRefundID: String, now: Date) async throws -> RefundRecord? {
        try await database.write { connection in
            try Self.lockOrder(of: id, on: connection)
            let moved = try connection.execute(
                """
                UPDATE refunds SET state = 'succeeded', provider_refund_id = \(providerRefundID),
                    settled_at = \(now.unixMilliseconds), updated_at = \(now.unixMilliseconds)
                WHERE id = \(id.rawValue) AND state = 'pending'
                """)
            guard let record = try Self.refund(id: id, on: connection) else { return nil }
            if moved == 1 { try Self.applySuccess(record, now: now, on: connection) }
            return record
        }
    }

    /// Records that the provider refused the refund: its amount is refundable again, nothing was
    /// restocked, a cancellation is undone. Idempotent like ``recordSucceeded(_:providerRefundID:now:)``.
    public func recordFailed(_ id: RefundID, reason: String, now: Date) async throws -> RefundRecord? {
        try await database.write { connection in
            try Self.lockOrder(of: id, on: connection)
            let moved = try connection.execute(
                """
                UPDATE refunds SET state = 'failed', failure_reason = \(reason),
                    settled_at = \(now.unixMilliseconds), updated_at = \(now.unixMilliseconds)
                WHERE id = \(id.rawValue) AND state = 'pending'
                """)
            guard let record = try Self.refund(id: id, on: connection) else { return nil }
            if moved == 1 {
                let full = try Self.isWhole(record.refund.orderID, column: "refund_held_minor", on: connection)
                try Self.release(record, now: now, on: connection)
                try Self.event(record.refund.orderID, "refund_failed", record, detail: reason, now: now, on: connection)
                try AuditRepository.record(
                    .orderRefundFailed, subject: "order:\(record.refund.orderID.rawValue)", by: record.actor,
                    after: Self.auditValues(record.refund, extra: ["failure_reason": reason]), at: now, on: connection)
                try AnalyticsRepository.insert(
                    Self.analytics(record.refund, full: full, succeeded: false), at: now, on: connection)
            }
            return record
        }
    }

    /// Removes a pending refund the provider never saw (and now never will): its hold released, a
    /// cancellation undone. A retry under its key starts afresh. Returns whether it was removed.
    public func withdraw(_ id: RefundID, now: Date) async throws -> Bool {
        try await database.write { connection in
            try Self.lockOrder(of: id, on: connection)
            guard let record = try Self.refund(id: id, on: connection), record.refund.state == .pending else {
                return false
            }
            try Self.release(record, now: now, on: connection)
            try connection.execute("DELETE FROM refund_lines WHERE refund_id = \(id.rawValue)")
            try connection.execute("DELETE FROM refunds WHERE id = \(id.rawValue) AND state = 'pending'")
            try Self.event(
                record.refund.orderID, "refund_withdrawn", record, detail: "never reached the provider", now: now,
                on: connection)
            try AuditRepository.record(
                .orderRefundWithdrawn, subject: "order:\(record.refund.orderID.rawValue)", by: record.actor,
                before: Self.auditValues(record.refund, extra: [:]), at: now, on: connection)
            return true
        }
    }

    /// The order's refund under `key`, if any.
    public func refund(order: OrderID, key: String) async throws -> RefundRecord? {
        try await database.lookup { connection in try Self.refund(order: order, key: key, on: connection) }
    }

    /// Refund `id`, if any.
    public func refund(id: RefundID) async throws -> RefundRecord? {
        try await database.lookup { connection in try Self.refund(id: id, on: connection) }
    }

    /// Every refund of order `id`, oldest first.
    public func refunds(of id: OrderID) async throws -> [Refund] {
        try await database.read { connection in try Self.refunds(of: id, on: connection) }
    }

    /// Pending refunds nobody is working on (their lease ran out, or their holder is gone), oldest
    /// first, at most `limit`.
    public func unresolved(now: Date, limit: Int) async throws -> [RefundRecord] {
        let takeover = Takeover(holder: holder)
        return try await database.read { connection in
            try connection.query(
                """
                SELECT \(Self.columns) FROM refunds r JOIN orders o ON o.id = r.order_id
                WHERE r.state = 'pending' AND \(takeover.isFree(now: now, dialect: connection.dialect, table: "r"))
                ORDER BY r.created_at, r.id LIMIT \(limit)
                """
            ).map { try Self.record($0, on: connection) }
        }
    }

    // MARK: Building blocks for transactions

    static let columns: SQLQuery = """
        r.id, r.order_id, r.request_key, r.request_fingerprint, r.kind, r.state, r.currency, r.amount_minor,
        r.shipping_minor, r.fee_minor, r.reason_kind, r.reason_note, r.staff_id, r.actor, r.fulfilment_before,
        r.lease_expires_at, r.holder, r.failure_reason, r.created_at, r.settled_at, o.attempt_id
        """

    static func reserve(
        _ new: NewRefund, holder: Int64?, now: Date, on connection: any SQLConnection
    ) throws -> RefundReservation {
        guard let order = try orderRow(new.orderID, lock: true, on: connection) else {
            throw RefundRecordError.orderNotFound
        }
        if let existing = try refund(order: new.orderID, key: new.key.rawValue, on: connection) {
            return .existing(existing)
        }
        if case .cancellation = new.selection,
            try connection.queryFirst(
                "SELECT 1 AS pending FROM refunds WHERE order_id = \(new.orderID.rawValue) AND state = 'pending'")
                != nil
        {
            throw RefundRecordError.refundPending
        }
        let refundable = try refundable(order, on: connection)
        let plan: RefundPlan
        do {
            plan = try RefundPlan(new.selection, for: refundable)
        } catch {
            throw RefundRecordError.plan(error)
        }
        // The database's own bound: a hold past what was charged is refused whatever the plan said.
        let held = try connection.execute(
            """
            UPDATE orders SET refund_held_minor = refund_held_minor + \(plan.amount.minorUnits)
            WHERE id = \(new.orderID.rawValue) AND refund_held_minor + \(plan.amount.minorUnits) <= total_minor
            """)
        guard held == 1 else { throw RefundRecordError.plan(.exceedsRemaining(remaining: refundable.remaining)) }

        var fulfilmentBefore: FulfilmentStatus?
        if plan.kind == .cancellation {
            // Cancelled now, so nobody ships it while the money goes back; undone if the refund fails.
            fulfilmentBefore = refundable.fulfilment
            try connection.execute(
                """
                UPDATE orders SET fulfilment_status = 'cancelled'
                WHERE id = \(new.orderID.rawValue) AND fulfilment_status = \(refundable.fulfilment.rawValue)
                """)
        }
        let settlesAtOnce = plan.amount.isZero
        try connection.execute(
            """
            INSERT INTO refunds (
                id, order_id, request_key, request_fingerprint, kind, state, currency, amount_minor, shipping_minor,
                fee_minor, reason_kind, reason_note, staff_id, actor, fulfilment_before, lease_expires_at, holder,
                created_at, updated_at, settled_at)
            VALUES (
                \(new.id.rawValue), \(new.orderID.rawValue), \(new.key.rawValue), \(new.fingerprint),
                \(plan.kind.rawValue), \(settlesAtOnce ? "succeeded" : "pending"), \(plan.amount.currency.code),
                \(plan.amount.minorUnits), \(plan.shipping.minorUnits), \(plan.fee.minorUnits),
                \(new.reason.kind.rawValue), \(new.reason.note), \(new.actor.staffID?.rawValue), \(new.actor.name),
                \(fulfilmentBefore?.rawValue), \(new.leaseExpiresAt.unixMilliseconds), \(holder), \(now.unixMilliseconds),
                \(now.unixMilliseconds), \(settlesAtOnce ? now.unixMilliseconds : nil))
            """)
        for line in plan.lines {
            try connection.execute(
                """
                INSERT INTO refund_lines (refund_id, position, product_id, title, quantity, amount_minor, restock)
                VALUES (\(new.id.rawValue), \(line.position), \(line.productID.rawValue), \(line.title),
                        \(line.quantity), \(line.amount.minorUnits), \(line.restock ? 1 : 0))
                """)
        }
        guard let record = try refund(id: new.id, on: connection) else {
            throw DatabaseError(kind: .other, code: "refund", message: "refund missing after insert")
        }
        if plan.kind == .cancellation {
            try event(new.orderID, "cancelled", record, detail: nil, now: now, on: connection)
        }
        try event(new.orderID, "refund_requested", record, detail: nil, now: now, on: connection)
        try AuditRepository.record(
            plan.kind == .cancellation ? .orderCancelled : .orderRefundRequested,
            subject: "order:\(new.orderID.rawValue)", by: new.actor,
            after: auditValues(record.refund, extra: ["fulfilment_before": fulfilmentBefore?.rawValue]),
            at: now, on: connection)
        if settlesAtOnce {
            try applySuccess(record, now: now, on: connection)
            return .settled(record)
        }
        return .reserved(record)
    }

    /// What a succeeded refund does, in the transaction that moved it out of `pending`: the money
    /// given back counted (and the order's status with it), its units restocked, a cancelled
    /// order's promotion use given back.
    static func applySuccess(_ record: RefundRecord, now: Date, on connection: any SQLConnection) throws {
        let refund = record.refund
        let amount = refund.amount.minorUnits
        try connection.execute(
            """
            UPDATE orders SET refunded_minor = refunded_minor + \(amount),
                status = CASE WHEN refunded_minor + \(amount) >= total_minor THEN 'refunded' ELSE 'paid' END
            WHERE id = \(refund.orderID.rawValue)
            """)
        let mover = StockMover.person(record.actor)
        for line in refund.lines.sorted(by: { $0.productID < $1.productID }) where line.restock {
            try StockLedger.move(
                line.productID, by: line.quantity, reason: .returned, note: nil, actor: mover, refund: refund.id,
                onlyIfActive: false, now: now, on: connection)
        }
        if refund.kind == .cancellation {
            try connection.execute(
                """
                UPDATE promotions SET times_used = times_used - 1
                WHERE times_used > 0 AND code = (
                    SELECT promotion_code FROM orders WHERE id = \(refund.orderID.rawValue) AND discount_minor > 0)
                """)
        }
        try event(
            refund.orderID, "refunded", record, detail: refund.amount.description, now: now, on: connection)
        try AuditRepository.record(
            .orderRefunded, subject: "order:\(refund.orderID.rawValue)", by: record.actor,
            after: auditValues(refund, extra: [:]), at: now, on: connection)
        let full = try isWhole(refund.orderID, column: "refunded_minor", on: connection)
        try AnalyticsRepository.insert(analytics(refund, full: full, succeeded: true), at: now, on: connection)
    }

    /// Gives back what a pending refund held: its amount, and a cancelled order's fulfilment state.
    static func release(_ record: RefundRecord, now: Date, on connection: any SQLConnection) throws {
        try connection.execute(
            """
            UPDATE orders SET refund_held_minor = refund_held_minor - \(record.refund.amount.minorUnits)
            WHERE id = \(record.refund.orderID.rawValue)
            """)
        if let before = record.fulfilmentBefore {
            let reopened = try connection.execute(
                """
                UPDATE orders SET fulfilment_status = \(before.rawValue)
                WHERE id = \(record.refund.orderID.rawValue) AND fulfilment_status = 'cancelled'
                """)
            if reopened == 1 {
                try event(
                    record.refund.orderID, before.rawValue, record, detail: "cancellation undone", now: now,
                    on: connection)
            }
        }
    }

    /// The typed event for a refund's outcome; `full` when it gives back (or would have given back)
    /// the whole of what remained charged.
    static func analytics(_ refund: Refund, full: Bool, succeeded: Bool) -> AnalyticsEvent {
        .refundFinished(kind: refund.kind, reason: refund.reason.kind, full: full, succeeded: succeeded)
    }

    /// Whether the order's `column` (what refunds hold, or gave back) is all that was charged.
    static func isWhole(_ order: OrderID, column: SQLQuery, on connection: any SQLConnection) throws -> Bool {
        try connection.queryFirst(
            "SELECT CASE WHEN \(column) >= total_minor THEN 1 ELSE 0 END AS whole FROM orders WHERE id = \(order.rawValue)"
        )?.decode("whole", as: Int64.self) == 1
    }

    static func auditValues(_ refund: Refund, extra: [String: String?]) -> String? {
        var values: [String: String] = [
            "refund": refund.id.rawValue, "kind": refund.kind.rawValue, "amount": refund.amount.description,
            "reason": refund.reason.kind.rawValue,
        ]
        if let note = refund.reason.note { values["note"] = note }
        if !refund.lines.isEmpty {
            values["lines"] = refund.lines.map { "\($0.quantity) × \($0.title)\($0.restock ? " (restocked)" : "")" }
                .joined(separator: "; ")
        }
        for (key, value) in extra { if let value { values[key] = value } }
        return AuditValues.object(values)
    }

    static func event(
        _ order: OrderID, _ kind: String, _ record: RefundRecord, detail: String?, now: Date,
        on connection: any SQLConnection
    ) throws {
        try connection.execute(
            """
            INSERT INTO order_events (order_id, at, kind, staff_id, actor, detail)
            VALUES (\(order.rawValue), \(now.unixMilliseconds), \(kind), \(record.actor.staffID?.rawValue),
                    \(record.actor.name), \(detail ?? record.refund.amount.description))
            """)
    }

    /// Locks the order of refund `id` on PostgreSQL, so that settling it queues behind a request
    /// planning another refund of that order; SQLite has one writer.
    static func lockOrder(of id: RefundID, on connection: any SQLConnection) throws {
        guard connection.dialect == .postgres else { return }
        _ = try connection.query(
            "SELECT o.id FROM orders o JOIN refunds r ON r.order_id = o.id WHERE r.id = \(id.rawValue) FOR UPDATE OF o")
    }

    static func orderRow(_ id: OrderID, lock: Bool, on connection: any SQLConnection) throws -> SQLRow? {
        try connection.queryFirst(orderRowQuery(id, lock: lock, connection.dialect))
    }

    private static func orderRowQuery(_ id: OrderID, lock: Bool, _ dialect: SQLDialect) -> SQLQuery {
        let forUpdate: SQLQuery = lock && dialect == .postgres ? " FOR UPDATE" : ""
        return """
            SELECT id, currency, discount_minor, shipping_minor, fee_minor, total_minor, fulfilment_status,
                   refund_held_minor
            FROM orders WHERE id = \(id.rawValue)\(forUpdate)
            """
    }

    /// The statements that read order `id`'s lines, the units its refunds hold by line, and whether
    /// they hold its shipping and fee, sent together (one round trip on PostgreSQL), for
    /// ``refundable(_:held:)``.
    private static func heldQueries(_ id: OrderID) -> [SQLQuery] {
        [
            """
            SELECT product_id, title, unit_price_minor, quantity, line_total_minor FROM order_lines
            WHERE order_id = \(id.rawValue) ORDER BY position
            """,
            """
            SELECT l.position, CAST(SUM(l.quantity) AS BIGINT) AS units FROM refund_lines l JOIN refunds r ON r.id = l.refund_id
            WHERE r.order_id = \(id.rawValue) AND r.state <> 'failed' GROUP BY l.position
            """,
            """
            SELECT COALESCE(MAX(shipping_minor), 0) AS shipping, COALESCE(MAX(fee_minor), 0) AS fee FROM refunds
            WHERE order_id = \(id.rawValue) AND state <> 'failed'
            """,
        ]
    }

    /// The order in `row` as a refund sees it, with what its pending and succeeded refunds hold.
    static func refundable(_ row: SQLRow, on connection: any SQLConnection) throws -> RefundableOrder {
        try refundable(row, held: connection.queryTogether(heldQueries(OrderID(rawValue: try row.decode("id")))))
    }

    /// The order in `row` as a refund sees it, from the answers to ``heldQueries(_:)``.
    private static func refundable(_ row: SQLRow, held answers: [[SQLRow]]) throws -> RefundableOrder {
        let total = try row.money("total_minor")
        let lines = try answers[0].map { try OrderLine.read($0, currency: total.currency) }
        var heldUnits = lines.map { _ in 0 }
        for held in answers[1] {
            let position = try held.decode("position", as: Int.self)
            if heldUnits.indices.contains(position) { heldUnits[position] = try held.decode("units", as: Int.self) }
        }
        let parts = answers[2].first
        guard let fulfilment = FulfilmentStatus(rawValue: try row.decode("fulfilment_status")) else {
            throw DatabaseError.decoding(column: "fulfilment_status", expected: "a fulfilment status")
        }
        return RefundableOrder(
            lines: lines, discount: try row.money("discount_minor"), shipping: try row.money("shipping_minor"),
            fee: try row.money("fee_minor"), total: total, fulfilment: fulfilment, heldUnits: heldUnits,
            shippingHeld: (try parts?.decode("shipping", as: Int64.self) ?? 0) > 0,
            feeHeld: (try parts?.decode("fee", as: Int64.self) ?? 0) > 0,
            heldAmount: try row.money("refund_held_minor"))
    }

    static func refund(order: OrderID, key: String, on connection: any SQLConnection) throws -> RefundRecord? {
        try connection.queryFirst(
            """
            SELECT \(columns) FROM refunds r JOIN orders o ON o.id = r.order_id
            WHERE r.order_id = \(order.rawValue) AND r.request_key = \(key)
            """
        ).map { try record($0, on: connection) }
    }

    static func refund(id: RefundID, on connection: any SQLConnection) throws -> RefundRecord? {
        try connection.queryFirst(
            "SELECT \(columns) FROM refunds r JOIN orders o ON o.id = r.order_id WHERE r.id = \(id.rawValue)"
        ).map { try record($0, on: connection) }
    }

    static func refunds(of order: OrderID, on connection: any SQLConnection) throws -> [Refund] {
        try connection.query(
            """
            SELECT \(columns) FROM refunds r JOIN orders o ON o.id = r.order_id
            WHERE r.order_id = \(order.rawValue) ORDER BY r.created_at, r.id
            """
        ).map { try record($0, on: connection).refund }
    }

    static func record(_ row: SQLRow, on connection: any SQLConnection) throws -> RefundRecord {
        let id = try row.decode("id", as: String.self)
        let currency = try row.money("amount_minor").currency
        let lines = try connection.query(
            """
            SELECT position, product_id, title, quantity, amount_minor, restock FROM refund_lines
            WHERE refund_id = \(id) ORDER BY position
            """
        ).map { try Self.line($0, currency: currency) }
        let refund = try Self.refund(row, lines: lines)
        let actorName = refund.requestedBy
        let actor: AuditActor =
            if let staff = try row.decode("staff_id", as: Int64?.self) {
                .staff(StaffID(rawValue: staff), email: actorName)
            } else {
                .commandLine
            }
        return RefundRecord(
            refund: refund, key: try row.decode("request_key"), fingerprint: try row.decode("request_fingerprint"),
            leaseExpiresAt: try row.date("lease_expires_at"), holder: try row.decode("holder", as: Int64?.self),
            chargeKey: try row.decode("attempt_id"),
            fulfilmentBefore: try row.decode("fulfilment_before", as: String?.self).flatMap(
                FulfilmentStatus.init(rawValue:)),
            actor: actor)
    }

    /// One line of a refund from a row of `refund_lines`.
    static func line(_ row: SQLRow, currency: Currency) throws -> RefundLine {
        RefundLine(
            position: try row.decode("position"), productID: ProductID(try row.decode("product_id", as: Int64.self)),
            title: try row.decode("title"), quantity: try row.decode("quantity"),
            amount: Money(minorUnits: try row.decode("amount_minor"), currency: currency),
            restock: try row.decode("restock", as: Int64.self) == 1)
    }

    /// The refund in `row` (of ``columns``), with its `lines`.
    static func refund(_ row: SQLRow, lines: [RefundLine]) throws -> Refund {
        guard let kind = RefundKind(rawValue: try row.decode("kind")) else {
            throw DatabaseError.decoding(column: "kind", expected: "a refund kind")
        }
        guard let state = RefundState(rawValue: try row.decode("state")) else {
            throw DatabaseError.decoding(column: "state", expected: "a refund state")
        }
        guard let reasonKind = RefundReasonKind(rawValue: try row.decode("reason_kind")),
            let reason = RefundReason(kind: reasonKind, note: try row.decode("reason_note"))
        else { throw DatabaseError.decoding(column: "reason_kind", expected: "a refund reason") }
        return Refund(
            id: RefundID(rawValue: try row.decode("id")), orderID: OrderID(rawValue: try row.decode("order_id")),
            kind: kind, state: state, amount: try row.money("amount_minor"), lines: lines,
            shipping: try row.money("shipping_minor"), fee: try row.money("fee_minor"), reason: reason,
            requestedBy: try row.decode("actor"), createdAt: try row.date("created_at"),
            settledAt: try row.decode("settled_at", as: Int64?.self).map(Date.init(unixMilliseconds:)),
            failureReason: try row.decode("failure_reason"))
    }
}
