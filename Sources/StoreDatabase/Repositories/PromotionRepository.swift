import CheckoutKit
import StoreSQL

/// Reads promotions by code.
public struct PromotionRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// The promotion with `code`, or `nil` when no such code exists (whatever its availability).
    public func promotion(_ code: PromotionCode) async throws -> Promotion? {
        try await database.read { connection in try Self.promotion(code, on: connection) }
    }

    static func promotion(_ code: PromotionCode, on connection: any SQLConnection) throws -> Promotion? {
        guard
            let row = try connection.queryFirst(
                """
                SELECT code, kind, percent_off, amount_off_minor, currency, minimum_subtotal_minor, starts_at, ends_at,
                       usage_limit, times_used
                FROM promotions WHERE code = \(code.rawValue)
                """)
        else { return nil }
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
            usageLimit: try row.decode("usage_limit", as: Int?.self), timesUsed: try row.decode("times_used"))
    }
}
