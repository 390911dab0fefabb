import Foundation
import StoreSQL

/// Deletes what the store no longer needs, a small batch per transaction so that the one SQLite
/// writer is never held for long and checkouts go on between batches:
///
/// - sessions past their expiry;
/// - payment attempts that failed (declined, given up) before a cutoff — their keys answer for at
///   least 24 hours first;
/// - anonymous shoppers who can no longer be reached (no session left), bought nothing and have no
///   payment attempt, with their baskets. Customers' shoppers stay, as do shoppers with orders.
public struct HousekeepingRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// What one pass deleted.
    public struct Report: Hashable, Sendable {
        public var sessions = 0
        public var failedAttempts = 0
        public var shoppers = 0

        /// Nothing deleted.
        public init() {}
    }

    /// Runs one pass: expired sessions, failed attempts created before `failedAttemptsBefore`, then
    /// abandoned anonymous shoppers created before `shoppersBefore` — each in batches of
    /// `batchSize` rows, one transaction per batch.
    public func run(
        now: Date, failedAttemptsBefore: Date, shoppersBefore: Date, batchSize: Int = 500
    ) async throws -> Report {
        var report = Report()
        report.sessions = try await inBatches {
            try await database.write { connection in
                try connection.execute(
                    """
                    DELETE FROM sessions WHERE token_hash IN (
                        SELECT token_hash FROM sessions WHERE expires_at <= \(now.unixMilliseconds)
                        LIMIT \(batchSize))
                    """)
            }
        }
        report.failedAttempts = try await inBatches {
            try await database.write { connection in
                try connection.execute(
                    """
                    DELETE FROM payment_attempts WHERE id IN (
                        SELECT id FROM payment_attempts
                        WHERE state = 'failed' AND created_at < \(failedAttemptsBefore.unixMilliseconds)
                        LIMIT \(batchSize))
                    """)
            }
        }
        report.shoppers = try await inBatches {
            try await database.write { connection in
                // The same batch (the oldest abandoned shoppers) for the three statements:
                // nothing they delete changes which shoppers the query picks.
                let batch: SQLQuery = """
                    SELECT s.id FROM shoppers s
                    WHERE s.customer_id IS NULL AND s.created_at < \(shoppersBefore.unixMilliseconds)
                      AND NOT EXISTS (SELECT 1 FROM sessions WHERE shopper_id = s.id)
                      AND NOT EXISTS (SELECT 1 FROM orders WHERE shopper_id = s.id)
                      AND NOT EXISTS (SELECT 1 FROM payment_attempts WHERE shopper_id = s.id)
                    ORDER BY s.created_at, s.id LIMIT \(batchSize)
                    """
                try connection.execute("DELETE FROM basket_lines WHERE shopper_id IN (\(batch))")
                try connection.execute("DELETE FROM baskets WHERE shopper_id IN (\(batch))")
                return try connection.execute("DELETE FROM shoppers WHERE id IN (\(batch))")
            }
        }
        return report
    }

    /// Runs `batch` until it deletes nothing; returns the total. Yields between batches.
    private func inBatches(_ batch: () async throws -> Int) async throws -> Int {
        var total = 0
        while true {
            let deleted = try await batch()
            total += deleted
            if deleted == 0 || Task.isCancelled { return total }
            await Task.yield()
        }
    }
}
