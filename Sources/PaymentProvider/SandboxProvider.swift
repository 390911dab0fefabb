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
///
/// Payment links and QR codes are approved; any other card token is declined as `invalid_token`.
///
/// Like a real provider it is *outside* the store's failures: its ledger is its own table,
/// reached through its own connections and committed in its own transactions (on SQLite, its own
/// file), so it survives the store being killed and is what tests count charges in. It is
/// idempotent on the key: a key seen before returns the recorded outcome and charges nothing.
///
/// A lookup of a key it has never seen closes the key: the ledger records it as declined with
/// the reason `key_closed`, so a charge with that key arriving later is declined, and the lookup
/// keeps answering "never seen". The key is the ledger's primary key, so a lookup and a charge
/// racing for one key are ordered by the database: one of them wins, whole.
public final class SandboxProvider: PaymentProvider {
    private let ledger: any SQLDatabase
    private let clock: @Sendable () -> Date

    /// A sandbox keeping its ledger in `ledger`, an opened database of its own (on SQLite, its own
    /// file; on PostgreSQL, connections of its own), whose ledger table it creates if needed.
    ///
    /// The provider takes the database over: ``close()`` closes it, and so does a failure here
    /// (the table could not be created), before the error is thrown.
    public static func open(
        ledger: any SQLDatabase, clock: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> SandboxProvider {
        do {
            try await ledger.write { connection in
                if connection.dialect == .postgres {
                    // Servers starting together would race on CREATE TABLE IF NOT EXISTS.
                    _ = try connection.query("SELECT pg_advisory_xact_lock(\(Self.ledgerLockKey))")
                }
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
                        created_at BIGINT NOT NULL
                    )
                    """)
            }
        } catch {
            await ledger.close()
            throw error
        }
        return SandboxProvider(ledger: ledger, clock: clock)
    }

    /// The key of the advisory lock that serializes creating the ledger on PostgreSQL.
    static let ledgerLockKey: Int64 = 0x5A_4E_D8_0C

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
        case down
    }

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
        case .chargeThenLoseAnswer: (outcome, reason, brand) = ("approved", nil, "visa")
        case .down: (outcome, reason, brand) = ("declined", "unavailable", nil)
        }
        let now = Self.milliseconds(clock())
        return try await ledger.write { connection in
            let inserted = try connection.execute(
                """
                INSERT INTO sandbox_charges (key, charge_id, outcome, decline_reason, card_brand, method, amount_minor,
                                             currency, created_at)
                VALUES (\(request.key), \(chargeID), \(outcome), \(reason), \(brand), \(request.method.kind.rawValue),
                        \(request.amount.minorUnits), \(request.amount.currency.code), \(now))
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

    /// Every approved charge's key, for tests and audits that compare charges with orders.
    public func approvedKeys() async throws -> [String] {
        try await ledger.read { connection in
            try connection.query("SELECT key FROM sandbox_charges WHERE outcome = 'approved' ORDER BY key").map {
                try $0.decode("key")
            }
        }
    }
}
