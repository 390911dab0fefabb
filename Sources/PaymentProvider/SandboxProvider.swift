import CheckoutKit
import Foundation
import StoreSQL

/// The built-in provider that behaves like a real provider's test mode (docs/BEHAVIOUR.md §5).
///
/// | token | outcome |
/// |---|---|
/// | `tok_visa`, `tok_mastercard` | approved |
/// | `tok_chargeDeclined` | declined, `card_declined` |
/// | `tok_insufficientFunds` | declined, `insufficient_funds` |
/// | `tok_timeout` | charged, then the answer is lost (``ProviderError/timedOut``) |
/// | `tok_unavailable` | down before charging (``ProviderError/unavailable``), nothing charged |
/// | `tok_refundTimeout` | approved (visa); a refund is made, then its answer is lost (``ProviderError/timedOut``) |
/// | `tok_refundFail` | approved (visa); every refund is refused, `refund_refused` |
/// | `tok_slow` | approved (visa) at once, answered after ``slowAnswer`` (1 s); asking again answers at once |
///
/// Payment links and QR codes are approved; any other card token is declined as `invalid_token`.
///
/// Like a real provider it is *outside* the store's failures: its ledger is tables of its own,
/// reached through its own connections and committed in its own transactions (on SQLite, its own
/// file), so it survives the store being killed and is what tests count charges and refunds in. It
/// is idempotent on the key: a key seen before returns the recorded outcome and charges nothing.
///
/// A lookup of a key it has never seen closes the key: the ledger records it as declined with
/// the reason `key_closed`, so a charge with that key arriving later is declined, and the lookup
/// keeps answering "never seen". The key is the ledger's primary key, so a lookup and a charge
/// racing for one key are ordered by the database: one of them wins, whole.
///
/// Refunds work the same way, on keys of their own: ``refund(_:)`` gives back part or all of an
/// approved charge, at most once per refund key, and refuses (recording the refusal under the key)
/// a charge it does not hold (`no_charge`), a currency other than the charge's
/// (`currency_mismatch`), an amount that is not positive (`invalid_amount`) and what would take
/// the charge's refunds past the amount charged (`exceeds_charge`). Refunds of one charge are
/// serialized (on PostgreSQL by a lock on the charge's row; SQLite has one writer), so concurrent
/// refunds never give back more than was charged. ``refundStatus(ofKey:)`` closes an unseen refund
/// key as ``status(ofKey:)`` closes a charge key.
public final class SandboxProvider: PaymentProvider {
    private let ledger: any SQLDatabase
    private let clock: @Sendable () -> Date

    /// A sandbox keeping its ledger in `ledger`, an opened database of its own (on SQLite, its own
    /// file; on PostgreSQL, connections of its own), whose ledger tables it creates if needed.
    ///
    /// A ledger written by an earlier version is brought up to date: its charges gain the
    /// `card_token` column (empty for the charges already made) and the refunds table is added.
    ///
    /// The provider takes the database over: ``close()`` closes it, and so does a failure here
    /// (the tables could not be created), before the error is thrown.
    public static func open(
        ledger: any SQLDatabase, clock: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> SandboxProvider {
        do {
            try await ledger.write { connection in
                if connection.dialect == .postgres {
                    // Servers starting together would race on CREATE TABLE IF NOT EXISTS.
                    _ = try connection.query("SELECT pg_advisory_xact_lock(\(Self.ledgerLockKey))")
                }
                try Self.createLedger(connection)
            }
        } catch {
            await ledger.close()
            throw error
        }
        return SandboxProvider(ledger: ledger, clock: clock)
    }

    /// The key of the advisory lock that serializes creating the ledger on PostgreSQL.
    static let ledgerLockKey: Int64 = 0x5A_4E_D8_0C

    /// Creates the ledger's tables, or brings a ledger of an earlier version up to date.
    private static func createLedger(_ connection: any SQLConnection) throws {
        try connection.executeScript(
            """
            CREATE TABLE IF NOT EXISTS sandbox_charges (
                key TEXT PRIMARY KEY,
                charge_id TEXT NOT NULL UNIQUE,
                outcome TEXT NOT NULL CHECK (outcome IN ('approved', 'declined')),
                decline_reason TEXT,
                card_brand TEXT,
                method TEXT NOT NULL,
                amount_minor BIGINT NOT NULL,
                currency TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                card_token TEXT
            );
            CREATE TABLE IF NOT EXISTS sandbox_refunds (
                key TEXT PRIMARY KEY,
                charge_key TEXT,
                refund_id TEXT UNIQUE,
                outcome TEXT NOT NULL CHECK (outcome IN ('refunded', 'refused')),
                refusal_reason TEXT,
                amount_minor BIGINT NOT NULL,
                currency TEXT NOT NULL,
                created_at BIGINT NOT NULL
            );
            CREATE INDEX IF NOT EXISTS sandbox_refunds_charge_key ON sandbox_refunds (charge_key)
            """)
        // A ledger created before refunds has no card_token column.
        switch connection.dialect {
        case .postgres:
            try connection.executeScript("ALTER TABLE sandbox_charges ADD COLUMN IF NOT EXISTS card_token TEXT")
        case .sqlite:
            let found = try connection.queryFirst(
                "SELECT 1 AS found FROM pragma_table_info('sandbox_charges') WHERE name = 'card_token'")
            if found == nil {
                try connection.executeScript("ALTER TABLE sandbox_charges ADD COLUMN card_token TEXT")
            }
        }
    }

    init(ledger: any SQLDatabase, clock: @escaping @Sendable () -> Date) {
        self.ledger = ledger
        self.clock = clock
    }

    /// Closes the ledger's database.
    public func close() async {
        await ledger.close()
    }

    public func charge(_ request: ChargeRequest) async throws(ProviderError) -> ChargeOutcome {
        let decision = Self.decide(request.method)
        if case .down = decision { throw .unavailable }
        let recorded: (outcome: ChargeOutcome, isNew: Bool)
        do {
            recorded = try await record(request, decision: decision)
        } catch {
            // The ledger failed mid-call: whether the charge was recorded is not known here.
            throw .timedOut
        }
        // tok_timeout: the charge is made, but the answer to *this* call is lost. Asking again with
        // the same key gets the recorded outcome, as from a real provider.
        if case .chargeThenLoseAnswer = decision, recorded.isNew { throw .timedOut }
        // tok_slow: charged at once, answered late — a server may die while it waits.
        if case .approveSlowly = decision, recorded.isNew { try? await Task.sleep(for: Self.slowAnswer) }
        return recorded.outcome
    }

    public func status(ofKey key: String) async throws(ProviderError) -> ChargeStatus {
        let now = Self.milliseconds(clock())
        let closing = OpaqueIdentifier.make(prefix: "closed_")
        do {
            return try await ledger.write { connection in
                try connection.execute(
                    """
                    INSERT INTO sandbox_charges (key, charge_id, outcome, decline_reason, card_brand, method,
                                                 amount_minor, currency, created_at)
                    VALUES (\(key), \(closing), 'declined', \(Self.keyClosed.rawValue), NULL, 'none', 0, '', \(now))
                    ON CONFLICT (key) DO NOTHING
                    """)
                guard
                    let row = try connection.queryFirst(
                        """
                        SELECT charge_id, outcome, decline_reason, card_brand, amount_minor, currency
                        FROM sandbox_charges WHERE key = \(key)
                        """)
                else { throw DatabaseError(kind: .other, code: "ledger", message: "key missing after insert") }
                if try row.decode("outcome", as: String.self) == "approved" {
                    guard let currency = Currency(code: try row.decode("currency")) else {
                        throw DatabaseError.decoding(column: "currency", expected: "a known currency")
                    }
                    return .charged(
                        chargeID: try row.decode("charge_id"),
                        amount: Money(minorUnits: try row.decode("amount_minor"), currency: currency),
                        cardBrand: try row.decode("card_brand"))
                }
                let reason = DeclineReason(rawValue: try row.decode("decline_reason", as: String?.self) ?? "declined")
                return reason == Self.keyClosed ? .neverSeen : .declined(reason)
            }
        } catch {
            throw .unavailable
        }
    }

    /// Refunds `request.amount` of the approved charge under `request.chargeKey`, at most once per
    /// `request.key`, or refuses it (see the type's documentation); the refusal is recorded under the
    /// key too, so the key answers the same ever after.
    ///
    /// A refund of a `tok_refundTimeout` charge is made but the answer to the call that made it is
    /// lost (``ProviderError/timedOut``); a later call with the same key, or
    /// ``refundStatus(ofKey:)``, tells the truth. A ledger failure mid-call throws
    /// ``ProviderError/timedOut`` too: whether the refund was recorded is not known here.
    public func refund(_ request: RefundRequest) async throws(ProviderError) -> RefundOutcome {
        let recorded: RecordedRefund
        do {
            recorded = try await record(request)
        } catch {
            throw .timedOut
        }
        if recorded.isNew, recorded.losesAnswer, case .refunded = recorded.outcome { throw .timedOut }
        return recorded.outcome
    }

    public func refundStatus(ofKey key: String) async throws(ProviderError) -> RefundStatus {
        let now = Self.milliseconds(clock())
        do {
            return try await ledger.write { connection in
                try connection.execute(
                    """
                    INSERT INTO sandbox_refunds (key, charge_key, refund_id, outcome, refusal_reason, amount_minor,
                                                 currency, created_at)
                    VALUES (\(key), NULL, NULL, 'refused', \(Self.refundKeyClosed.rawValue), 0, '', \(now))
                    ON CONFLICT (key) DO NOTHING
                    """)
                guard
                    let row = try connection.queryFirst(
                        "SELECT \(unsafeSQL: Self.refundColumns) FROM sandbox_refunds WHERE key = \(key)")
                else { throw DatabaseError(kind: .other, code: "ledger", message: "refund key missing after insert") }
                let refund = try Self.refund(row)
                switch refund.outcome {
                case .refunded(let refundID):
                    guard let amount = refund.amount else {
                        throw DatabaseError.decoding(column: "currency", expected: "a known currency")
                    }
                    return .refunded(refundID: refundID, amount: amount)
                case .refused(let reason):
                    return reason == Self.refundKeyClosed ? .neverSeen : .refused(reason)
                }
            }
        } catch {
            throw .unavailable
        }
    }

    /// The refusal recorded for a refund key closed by a lookup that found nothing.
    static let refundKeyClosed = RefundRefusal(rawValue: "key_closed")
    /// The refusal of a refund in a currency other than the charge's.
    static let currencyMismatch = RefundRefusal(rawValue: "currency_mismatch")
    /// The refusal of a refund of nothing or of a negative amount.
    static let invalidAmount = RefundRefusal(rawValue: "invalid_amount")

    /// What recording a refund found or wrote under its key.
    private struct RecordedRefund: Sendable {
        var outcome: RefundOutcome
        /// Whether this call wrote the key's outcome (rather than finding one recorded).
        var isNew: Bool
        /// Whether the charge was made with `tok_refundTimeout`: a new refund's answer is lost.
        var losesAnswer: Bool
    }

    /// Decides and records the refund under its key in one transaction, or returns the outcome
    /// already recorded for the key.
    private func record(_ request: RefundRequest) async throws -> RecordedRefund {
        let refundID = OpaqueIdentifier.make(prefix: "re_")
        let now = Self.milliseconds(clock())
        return try await ledger.write { connection in
            if let seen = try connection.queryFirst(
                "SELECT \(unsafeSQL: Self.refundColumns) FROM sandbox_refunds WHERE key = \(request.key)")
            {
                return RecordedRefund(outcome: try Self.refund(seen).outcome, isNew: false, losesAnswer: false)
            }
            // Refunds of one charge queue on its row (SQLite has one writer), so the sum read below
            // stays true until this transaction commits.
            let lock: SQLQuery = connection.dialect == .postgres ? " FOR UPDATE" : ""
            let charge = try connection.queryFirst(
                """
                SELECT amount_minor, currency, card_token FROM sandbox_charges
                WHERE key = \(request.chargeKey) AND outcome = 'approved'\(lock)
                """)
            var refusal: RefundRefusal?
            var losesAnswer = false
            if let charge {
                let charged: Int64 = try charge.decode("amount_minor")
                let token: String? = try charge.decode("card_token")
                losesAnswer = token == SandboxCard.refundTimeout.rawValue
                if try charge.decode("currency", as: String.self) != request.amount.currency.code {
                    refusal = Self.currencyMismatch
                } else if !request.amount.isPositive {
                    refusal = Self.invalidAmount
                } else if token == SandboxCard.refundFail.rawValue {
                    refusal = .refused
                } else {
                    let refunded: Int64 = try Self.refundedMinorUnits(connection, chargeKey: request.chargeKey)
                    let (total, overflow) = refunded.addingReportingOverflow(request.amount.minorUnits)
                    if overflow || total > charged { refusal = .exceedsCharge }
                }
            } else {
                refusal = .noCharge
            }
            let inserted = try connection.execute(
                """
                INSERT INTO sandbox_refunds (key, charge_key, refund_id, outcome, refusal_reason, amount_minor,
                                             currency, created_at)
                VALUES (\(request.key), \(request.chargeKey), \(refusal == nil ? refundID : nil),
                        \(refusal == nil ? "refunded" : "refused"), \(refusal?.rawValue), \(request.amount.minorUnits),
                        \(request.amount.currency.code), \(now))
                ON CONFLICT (key) DO NOTHING
                """)
            guard
                let row = try connection.queryFirst(
                    "SELECT \(unsafeSQL: Self.refundColumns) FROM sandbox_refunds WHERE key = \(request.key)")
            else { throw DatabaseError(kind: .other, code: "ledger", message: "refund missing after insert") }
            return RecordedRefund(outcome: try Self.refund(row).outcome, isNew: inserted == 1, losesAnswer: losesAnswer)
        }
    }

    /// The sum of the refunds made of the charge under `chargeKey`, in the charge's minor units.
    private static func refundedMinorUnits(_ connection: any SQLConnection, chargeKey: String) throws -> Int64 {
        guard
            let row = try connection.queryFirst(
                """
                SELECT CAST(COALESCE(SUM(amount_minor), 0) AS BIGINT) AS refunded FROM sandbox_refunds
                WHERE charge_key = \(chargeKey) AND outcome = 'refunded'
                """)
        else { return 0 }
        return try row.decode("refunded")
    }

    /// The columns a row of `sandbox_refunds` is read from.
    private static let refundColumns = "key, charge_key, refund_id, outcome, refusal_reason, amount_minor, currency"

    /// A row of `sandbox_refunds`.
    private static func refund(_ row: SQLRow) throws -> SandboxRefund {
        let outcome: RefundOutcome
        if try row.decode("outcome", as: String.self) == "refunded" {
            guard let refundID = try row.decode("refund_id", as: String?.self) else {
                throw DatabaseError.decoding(column: "refund_id", expected: "the id of a refund made")
            }
            outcome = .refunded(refundID: refundID)
        } else {
            outcome = .refused(
                RefundRefusal(rawValue: try row.decode("refusal_reason", as: String?.self) ?? "refund_refused"))
        }
        // A key closed by a lookup asked for nothing: no currency, no amount.
        let minorUnits: Int64 = try row.decode("amount_minor")
        let amount = Currency(code: try row.decode("currency")).map { Money(minorUnits: minorUnits, currency: $0) }
        return SandboxRefund(
            key: try row.decode("key"), chargeKey: try row.decode("charge_key"), outcome: outcome, amount: amount)
    }

    /// Whole milliseconds since 1970 UTC: how the ledger stores instants, like the store's tables.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000).rounded(.down))
    }

    /// The decline reason of a key closed by a lookup that found nothing.
    static let keyClosed = DeclineReason(rawValue: "key_closed")

    /// What the sandbox does with a method.
    enum Decision: Equatable {
        case approve(brand: String?)
        case decline(DeclineReason)
        case chargeThenLoseAnswer
        case approveSlowly
        case down
    }

    /// How long a `tok_slow` charge takes to answer the call that made it.
    public static let slowAnswer: Duration = .seconds(1)

    static func decide(_ method: PaymentMethod) -> Decision {
        switch method {
        case .paymentLink, .qrCode:
            return .approve(brand: nil)
        case .card(let token):
            guard let card = SandboxCard(rawValue: token.rawValue) else {
                return .decline(DeclineReason(rawValue: "invalid_token"))
            }
            switch card {
            case .visa: return .approve(brand: "visa")
            case .mastercard: return .approve(brand: "mastercard")
            case .chargeDeclined: return .decline(.cardDeclined)
            case .insufficientFunds: return .decline(.insufficientFunds)
            case .timeout: return .chargeThenLoseAnswer
            case .unavailable: return .down
            case .refundTimeout, .refundFail: return .approve(brand: "visa")
            case .slow: return .approveSlowly
            }
        }
    }

    /// Records the outcome for the key, or returns the outcome already recorded for it; `isNew`
    /// tells which.
    private func record(
        _ request: ChargeRequest, decision: Decision
    ) async throws -> (
        outcome: ChargeOutcome, isNew: Bool
    ) {
        let chargeID = OpaqueIdentifier.make(prefix: "ch_")
        let (outcome, reason, brand): (String, String?, String?)
        switch decision {
        case .approve(let cardBrand): (outcome, reason, brand) = ("approved", nil, cardBrand)
        case .decline(let declineReason): (outcome, reason, brand) = ("declined", declineReason.rawValue, nil)
        case .chargeThenLoseAnswer, .approveSlowly: (outcome, reason, brand) = ("approved", nil, "visa")
        case .down: (outcome, reason, brand) = ("declined", "unavailable", nil)
        }
        let cardToken: String?
        switch request.method {
        case .card(let token): cardToken = token.rawValue
        case .paymentLink, .qrCode: cardToken = nil
        }
        let now = Self.milliseconds(clock())
        return try await ledger.write { connection in
            let inserted = try connection.execute(
                """
                INSERT INTO sandbox_charges (key, charge_id, outcome, decline_reason, card_brand, method, amount_minor,
                                             currency, created_at, card_token)
                VALUES (\(request.key), \(chargeID), \(outcome), \(reason), \(brand), \(request.method.kind.rawValue),
                        \(request.amount.minorUnits), \(request.amount.currency.code), \(now), \(cardToken))
                ON CONFLICT (key) DO NOTHING
                """)
            guard
                let row = try connection.queryFirst(
                    "SELECT charge_id, outcome, decline_reason, card_brand FROM sandbox_charges WHERE key = \(request.key)"
                )
            else { throw DatabaseError(kind: .other, code: "ledger", message: "charge missing after insert") }
            if try row.decode("outcome", as: String.self) == "approved" {
                return (
                    .approved(chargeID: try row.decode("charge_id"), cardBrand: try row.decode("card_brand")),
                    inserted == 1
                )
            }
            let reason = DeclineReason(rawValue: try row.decode("decline_reason", as: String?.self) ?? "declined")
            return (.declined(reason), inserted == 1)
        }
    }

    /// Every refund key the ledger holds, refunded or refused, ordered by key: for tests and audits
    /// that compare refunds with orders.
    public func refunds() async throws -> [SandboxRefund] {
        try await ledger.read { connection in
            try connection.query("SELECT \(unsafeSQL: Self.refundColumns) FROM sandbox_refunds ORDER BY key").map {
                try Self.refund($0)
            }
        }
    }

    /// How much of the approved charge under `chargeKey` has been refunded, in the charge's
    /// currency; `nil` when the ledger holds no approved charge under that key.
    public func refundedAmount(ofChargeKey chargeKey: String) async throws -> Money? {
        try await ledger.read { connection in
            guard
                let charge = try connection.queryFirst(
                    "SELECT currency FROM sandbox_charges WHERE key = \(chargeKey) AND outcome = 'approved'")
            else { return nil }
            guard let currency = Currency(code: try charge.decode("currency")) else {
                throw DatabaseError.decoding(column: "currency", expected: "a known currency")
            }
            return Money(minorUnits: try Self.refundedMinorUnits(connection, chargeKey: chargeKey), currency: currency)
        }
    }

    /// Every approved charge's key, for tests and audits that compare charges with orders.
    public func approvedKeys() async throws -> [String] {
        try await ledger.read { connection in
            try connection.query("SELECT key FROM sandbox_charges WHERE outcome = 'approved' ORDER BY key").map {
                try $0.decode("key")
            }
        }
    }
}

/// A refund key as the sandbox's ledger holds it: for tests and audits.
public struct SandboxRefund: Hashable, Sendable {
    /// The refund's key (the store's refund id).
    public let key: String
    /// The key of the charge refunded; `nil` for a key closed by a lookup.
    public let chargeKey: String?
    /// Refunded (with the refund's id) or refused (why).
    public let outcome: RefundOutcome
    /// The amount asked for (given back when refunded); `nil` for a key closed by a lookup.
    public let amount: Money?

    public init(key: String, chargeKey: String?, outcome: RefundOutcome, amount: Money?) {
        self.key = key
        self.chargeKey = chargeKey
        self.outcome = outcome
        self.amount = amount
    }

    /// The refund's id when it was made.
    public var refundID: String? {
        if case .refunded(let refundID) = outcome { refundID } else { nil }
    }
}
