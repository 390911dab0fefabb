import CheckoutKit
import Foundation
import PaymentProvider
import StoreDatabase

/// What a refund request came to.
package struct RefundResult: Hashable, Sendable {
    /// The refund as recorded now: `succeeded`, or `failed` when the provider refused it.
    package let record: RefundRecord
    /// Whether an earlier request with the same key recorded this outcome.
    package let replayed: Bool

    package var refund: Refund { record.refund }
}

/// Why a refund request has no outcome yet; nothing was given back twice.
package enum RefundServiceError: Error, Hashable, Sendable {
    /// The provider's answer is not known (down, or the answer was lost): the refund is pending
    /// or was withdrawn. Retrying with the same key is safe — it asks the provider about that key
    /// and never refunds twice.
    case unavailable
}

/// The canonical form of a refund request, kept with the refund to recognise a retry of the same
/// request and, for another request under the same key, to name the field that differs.
package struct RefundFingerprint: Hashable, Sendable {
    package let fields: [(name: String, value: String)]

    package init(selection: RefundSelection, reason: RefundReason) {
        var fields: [(String, String)] = [("kind", selection.kind.rawValue)]
        switch selection {
        case .lines(let choices, let shipping):
            let lines = choices.sorted { $0.position < $1.position }.map {
                "\($0.position):\($0.quantity):\($0.restock ? "restock" : "keep")"
            }
            fields.append(("lines", lines.joined(separator: ",")))
            fields.append(("shipping", shipping ? "true" : "false"))
        case .goodwill(let amount):
            fields.append(("amount", amount.description))
        case .cancellation:
            break
        }
        fields.append(("reason", reason.kind.rawValue))
        fields.append(("note", reason.note ?? ""))
        self.fields = fields
    }

    /// One line per field, `name=value`; a note's line ends are escaped so each field is one line.
    package var text: String {
        fields.map {
            "\($0.name)=\($0.value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n"))"
        }
        .joined(separator: "\n")
    }

    /// The first field that differs from the fingerprint kept as `stored`.
    package func differingField(from stored: String) -> String {
        let theirs = stored.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where index >= theirs.count || theirs[index] != line {
            return fields[index].name
        }
        return "kind"
    }

    package static func == (lhs: RefundFingerprint, rhs: RefundFingerprint) -> Bool { lhs.text == rhs.text }
    package func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// Refunds and cancellations (docs/BEHAVIOUR.md §14): each refund sent to the provider at most
/// once, never more given back than was charged, stock back exactly once.
///
/// 1. Plan and record: in one transaction that locks the order, the refund is planned against
///    what the order's other refunds hold and recorded `pending` with its amount held — or refused
///    (`exceedsRemaining` with the remaining amount) before any provider is called.
/// 2. Ask the provider, outside any transaction, with the refund's id as the provider's
///    idempotency key.
/// 3. Record the outcome: succeeded (restocked, counted) or failed (the hold given back). A
///    refusal before processing withdraws the refund; a lost answer leaves it pending.
///
/// A retry with the same key replays a recorded outcome; one whose refund is pending and left
/// alone asks the provider what became of the refund's key — never refunding again. The store
/// settles refunds left alone (a server killed mid-call) the same way, by ``reconcile()``.
package struct RefundService: Sendable {
    package let database: StoreDatabase
    package let provider: any PaymentProvider
    package let clock: StoreClock
    /// Called after stock changed (units restocked), to refresh what readers see.
    package let stockChanged: @Sendable () -> Void
    /// Told what each refund request came to — `succeeded`, `failed`, `replayed`, `unavailable` or
    /// `refused` — for metrics.
    package let outcome: @Sendable (String) -> Void

    package init(
        database: StoreDatabase, provider: any PaymentProvider, clock: StoreClock,
        stockChanged: @escaping @Sendable () -> Void, outcome: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.outcome = outcome
        self.database = database
        self.provider = provider
        self.clock = clock
        self.stockChanged = stockChanged
    }

    /// What `selection` would give back of order `id` now, for a page that shows the amount
    /// before **Refund €X.XX** confirms it.
    ///
    /// - Throws: ``StoreDatabase/RefundRecordError``.
    package func quote(_ id: OrderID, _ selection: RefundSelection) async throws -> RefundPlan {
        guard let order = try await database.refunds.refundable(id) else { throw RefundRecordError.orderNotFound }
        do {
            return try RefundPlan(selection, for: order)
        } catch {
            throw RefundRecordError.plan(error)
        }
    }

    /// The order as a refund sees it now, `nil` when there is none.
    package func refundable(_ id: OrderID) async throws -> RefundableOrder? {
        try await database.refunds.refundable(id)
    }

    /// Every refund of order `id`, oldest first.
    package func refunds(of id: OrderID) async throws -> [Refund] {
        try await database.refunds.refunds(of: id)
    }

    /// Refunds `selection` of order `id` for `reason`, once per `key`.
    ///
    /// - Returns: the refund, succeeded or failed (the provider refused it).
    /// - Throws: ``StoreDatabase/RefundRecordError`` (not found, or the plan refused — nothing
    ///   recorded, no provider called), ``IdempotencyError`` (`mismatch`, `inProgress`),
    ///   ``RefundServiceError/unavailable`` (retry with the same key).
    package func refund(
        _ id: OrderID, _ selection: RefundSelection, reason: RefundReason, key: IdempotencyKey, by actor: AuditActor
    ) async throws -> RefundResult {
        do {
            let result = try await refundOnce(id, selection, reason: reason, key: key, by: actor)
            outcome(result.replayed ? "replayed" : result.refund.state.rawValue)
            return result
        } catch RefundServiceError.unavailable {
            outcome("unavailable")
            throw RefundServiceError.unavailable
        } catch {
            outcome("refused")
            throw error
        }
    }

    private func refundOnce(
        _ id: OrderID, _ selection: RefundSelection, reason: RefundReason, key: IdempotencyKey, by actor: AuditActor
    ) async throws -> RefundResult {
        let fingerprint = RefundFingerprint(selection: selection, reason: reason)
        // A refund the provider never saw is withdrawn and its key free again: one more round.
        for _ in 0..<2 {
            let now = clock.now()
            let request = NewRefund(
                id: .random(), orderID: id, key: key, fingerprint: fingerprint.text, selection: selection,
                reason: reason, actor: actor, leaseExpiresAt: now.addingTimeInterval(CheckoutService.lease))
            switch try await database.refunds.reserve(request, now: now) {
            case .settled(let record):
                stockChanged()
                return RefundResult(record: record, replayed: false)
            case .reserved(let record):
                return try await send(record)
            case .existing(let record):
                guard record.fingerprint == fingerprint.text else {
                    throw IdempotencyError.mismatch(field: fingerprint.differingField(from: record.fingerprint))
                }
                if record.refund.state != .pending { return RefundResult(record: record, replayed: true) }
                guard database.mayClaim(lease: record.leaseExpiresAt, holder: record.holder, now: clock.now()) else {
                    throw IdempotencyError.inProgress
                }
                switch await settle(record) {
                case .settled(let final): return RefundResult(record: final, replayed: true)
                case .withdrawn: continue
                case .busy: throw IdempotencyError.inProgress
                case .unknown: throw RefundServiceError.unavailable
                }
            }
        }
        throw RefundServiceError.unavailable
    }

    /// Asks the provider to make the refund, and records its answer.
    private func send(_ record: RefundRecord) async throws -> RefundResult {
        let request = RefundRequest(
            key: record.refund.id.rawValue, chargeKey: record.chargeKey, amount: record.refund.amount)
        let provider = self.provider
        let outcome: RefundOutcome
        do {
            outcome = try await CheckoutService.withDeadline(CheckoutService.providerTimeout) {
                () async throws(ProviderError) in
                try await provider.refund(request)
            }
        } catch {
            if error == .unavailable {
                // Refused before processing: nothing went back, nothing is held any more.
                _ = try? await database.refunds.withdraw(record.refund.id, now: clock.now())
            } else {
                // Answer lost: the refund stays pending; the retry (same key) or reconciliation
                // asks the provider about it — at once, the lease is given up.
                try? await database.refunds.releaseLease(record.refund.id, now: clock.now())
            }
            throw RefundServiceError.unavailable
        }
        guard let final = try await self.record(outcome, of: record.refund.id) else {
            throw RefundServiceError.unavailable
        }
        return RefundResult(record: final, replayed: false)
    }

    private func record(_ outcome: RefundOutcome, of id: RefundID) async throws -> RefundRecord? {
        let now = Date(unixMilliseconds: clock.now().unixMilliseconds)
        switch outcome {
        case .refunded(let providerID):
            let final = try await database.refunds.recordSucceeded(id, providerRefundID: providerID, now: now)
            stockChanged()
            return final
        case .refused(let reason):
            return try await database.refunds.recordFailed(id, reason: reason.rawValue, now: now)
        }
    }

    /// What settling a pending refund came to.
    enum Settlement {
        case settled(RefundRecord)
        /// The provider never saw it: removed, its key free again.
        case withdrawn
        /// Another request holds it.
        case busy
        /// The provider could not say.
        case unknown
    }

    /// Settles a pending refund nobody is working on by asking the provider about its key —
    /// never by refunding again.
    func settle(_ record: RefundRecord) async -> Settlement {
        let now = clock.now()
        guard
            (try? await database.refunds.claim(
                record.refund.id, leaseExpiresAt: now.addingTimeInterval(CheckoutService.lease), now: now)) == true
        else {
            if let latest = try? await database.refunds.refund(id: record.refund.id), latest.refund.state != .pending {
                return .settled(latest)
            }
            return .busy
        }
        let provider = self.provider
        let key = record.refund.id.rawValue
        let status: RefundStatus
        do {
            status = try await CheckoutService.withDeadline(CheckoutService.providerTimeout) {
                () async throws(ProviderError) in
                try await provider.refundStatus(ofKey: key)
            }
        } catch {
            try? await database.refunds.releaseLease(record.refund.id, now: clock.now())
            return .unknown
        }
        switch status {
        case .refunded(let providerID, _):
            guard let final = try? await self.record(.refunded(refundID: providerID), of: record.refund.id) else {
                return .unknown
            }
            return .settled(final)
        case .refused(let reason):
            guard let final = try? await self.record(.refused(reason), of: record.refund.id) else { return .unknown }
            return .settled(final)
        case .neverSeen:
            return (try? await database.refunds.withdraw(record.refund.id, now: clock.now())) == true
                ? .withdrawn : .unknown
        }
    }

    /// Settles every pending refund nobody is working on, oldest first, by asking the provider
    /// about its key. Returns how many reached an outcome (or were withdrawn).
    @discardableResult
    package func reconcile() async -> Int {
        var resolved = 0
        var seen = Set<RefundID>()
        while let page = try? await database.refunds.unresolved(now: clock.now(), limit: 100), !page.isEmpty {
            let fresh = page.filter { seen.insert($0.refund.id).inserted }
            guard !fresh.isEmpty else { break }
            for record in fresh {
                switch await settle(record) {
                case .settled, .withdrawn: resolved += 1
                case .busy, .unknown: break
                }
            }
        }
        return resolved
    }
}
