import CheckoutKit
import Foundation
import StoreSQL

/// Why a promotion could not be added or changed as asked; nothing was written.
public enum PromotionChangeError: Error, Hashable, Sendable {
    /// A promotion with that code exists (disabled ones too: a code is never reused).
    case exists(PromotionCode)
    /// There is no promotion with that code.
    case notFound
}

/// Reads promotions by code, and adds and disables them for the back office, each change with its
/// audit line in the same transaction. Promotions are read from the database whenever a basket is
/// priced (nothing caches them), so a change applies to the next request on every server.
public struct PromotionRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// The promotion with `code`, or `nil` when no such code exists (whatever its availability).
    public func promotion(_ code: PromotionCode) async throws -> Promotion? {
        try await database.lookup { connection in try Self.promotion(code, on: connection) }
    }

    /// Every promotion, disabled and expired ones too, by code.
    public func all() async throws -> [Promotion] {
        try await database.read { connection in
            try connection.query("SELECT \(Self.columns) FROM promotions ORDER BY code").map(Self.read)
        }
    }

    /// Adds `promotion` (unused, not disabled), by `actor`.
    ///
    /// - Throws: ``PromotionChangeError/exists(_:)`` when the code is taken.
    public func create(_ promotion: Promotion, by actor: AuditActor, now: Date) async throws -> Promotion {
        do {
            return try await database.write { connection in
                guard try Self.promotion(promotion.code, on: connection) == nil else {
                    throw PromotionChangeError.exists(promotion.code)
                }
                let (percent, amount) = Self.columns(of: promotion.kind)
                try connection.execute(
                    """
                    INSERT INTO promotions (code, kind, percent_off, amount_off_minor, currency, minimum_subtotal_minor,
                                            starts_at, ends_at, usage_limit, times_used, created_at)
                    VALUES (\(promotion.code.rawValue), \(percent == nil ? "amount_off" : "percent_off"), \(percent),
                            \(amount), \(promotion.minimumSubtotal.currency.code),
                            \(promotion.minimumSubtotal.minorUnits), \(promotion.startsAt?.unixMilliseconds),
                            \(promotion.endsAt?.unixMilliseconds), \(promotion.usageLimit), 0,
                            \(now.unixMilliseconds))
                    """)
                guard let created = try Self.promotion(promotion.code, on: connection) else {
                    throw PromotionChangeError.notFound
                }
                try AuditRepository.record(
                    .promotionCreated, subject: "promotion:\(created.code)", by: actor,
                    after: AuditValues.object(Self.auditFields(created)), at: now, on: connection)
                return created
            }
        } catch let error as DatabaseError where error.kind == .uniqueViolation {
            // Two creations of one code at once: the second finds the first's row only at commit.
            throw PromotionChangeError.exists(promotion.code)
        }
    }

    /// Disables `code` for good, by `actor`: baskets holding it stop getting its discount at once,
    /// and no checkout can count a use of it any more. Disabling a disabled code changes nothing
    /// and writes no audit line; the promotion as it is now either way.
    ///
    /// - Throws: ``PromotionChangeError/notFound``.
    public func disable(_ code: PromotionCode, by actor: AuditActor, now: Date) async throws -> Promotion {
        try await database.write { connection in
            let disabled = try connection.execute(
                """
                UPDATE promotions SET disabled_at = \(now.unixMilliseconds)
                WHERE code = \(code.rawValue) AND disabled_at IS NULL
                """)
            guard let promotion = try Self.promotion(code, on: connection) else { throw PromotionChangeError.notFound }
            if disabled == 1 {
                try AuditRepository.record(
                    .promotionDisabled, subject: "promotion:\(code)", by: actor,
                    before: AuditValues.object(["disabled": "false"]), after: AuditValues.object(["disabled": "true"]),
                    at: now, on: connection)
            }
            return promotion
        }
    }

    static let columns: SQLQuery = """
        code, kind, percent_off, amount_off_minor, currency, minimum_subtotal_minor, starts_at, ends_at, usage_limit, \
        times_used, disabled_at
        """

    static func promotion(_ code: PromotionCode, on connection: any SQLConnection) throws -> Promotion? {
        try connection.queryFirst("SELECT \(columns) FROM promotions WHERE code = \(code.rawValue)").map(read)
    }

    static func read(_ row: SQLRow) throws -> Promotion {
        guard let code = PromotionCode(rawValue: try row.decode("code")) else {
            throw DatabaseError.decoding(column: "code", expected: "a promotion code")
        }
        let kind: Promotion.Kind
        switch try row.decode("kind", as: String.self) {
        case "percent_off":
            guard let rate = Rate(percent: try row.decode("percent_off", as: Int.self)) else {
                throw DatabaseError.decoding(column: "percent_off", expected: "a percentage from 1 to 100")
            }
            kind = .percentOff(rate)
        case "amount_off":
            kind = .amountOff(try row.money("amount_off_minor"))
        default:
            throw DatabaseError.decoding(column: "kind", expected: "percent_off or amount_off")
        }
        return Promotion(
            code: code, kind: kind, minimumSubtotal: try row.money("minimum_subtotal_minor"),
            startsAt: try row.optionalDate("starts_at"), endsAt: try row.optionalDate("ends_at"),
            usageLimit: try row.decode("usage_limit", as: Int?.self), timesUsed: try row.decode("times_used"),
            disabledAt: try row.optionalDate("disabled_at"))
    }

    /// The `percent_off` and `amount_off_minor` columns of `kind`: one set, the other `NULL`.
    static func columns(of kind: Promotion.Kind) -> (percent: Int?, amount: Int64?) {
        switch kind {
        case .percentOff(let rate): (rate.basisPoints / 100, nil)
        case .amountOff(let amount): (nil, amount.minorUnits)
        }
    }

    /// What the audit log keeps of a new promotion.
    static func auditFields(_ promotion: Promotion) -> [String: String] {
        var fields = [
            "minimum_subtotal": "\(promotion.minimumSubtotal.amountText) \(promotion.minimumSubtotal.currency.code)"
        ]
        switch promotion.kind {
        case .percentOff(let rate): fields["percent_off"] = String(rate.basisPoints / 100)
        case .amountOff(let amount): fields["amount_off"] = "\(amount.amountText) \(amount.currency.code)"
        }
        fields["starts_at"] = promotion.startsAt?.formatted(Date.ISO8601FormatStyle())
        fields["ends_at"] = promotion.endsAt?.formatted(Date.ISO8601FormatStyle())
        fields["usage_limit"] = promotion.usageLimit.map(String.init)
        return fields
    }
}
