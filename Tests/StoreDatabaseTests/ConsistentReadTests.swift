import CheckoutKit
import Concurrency
import Foundation
import StoreDatabase
import StoreSQL
import StoreTestSupport
import Testing

/// A read made of several statements sees the database at one moment: never the basket's row from
/// before a change and its lines or its promotion from after it. (Priced from such a mix, a basket
/// had a code but no promotion: a total without the discount, and a checkout refused with
/// `price_changed` although nothing the shopper saw had changed.)
@Suite("Reads of several statements see one moment") struct ConsistentReadTests {
    /// Flips the shopper's basket, `flips` times, each in one transaction, between two states:
    /// product 1 with the code RUN10, and product 2 without a code.
    private static func flip(_ database: StoreDatabase, shopper: ShopperID, flips: Int) async throws {
        let id = shopper.rawValue
        for flip in 0..<flips {
            let withCode = flip % 2 == 1
            let product: Int64 = withCode ? 1 : 2
            let code: String? = withCode ? "RUN10" : nil
            try await database.sql.write { connection in
                try connection.execute("DELETE FROM basket_lines WHERE shopper_id = \(id)")
                try connection.execute(
                    """
                    INSERT INTO basket_lines (shopper_id, product_id, quantity, position)
                    VALUES (\(id), \(product), 1, 0)
                    """)
                try connection.execute(
                    "UPDATE baskets SET promotion_code = \(code), version = version + 1 WHERE shopper_id = \(id)")
            }
        }
    }

    /// Whether `inputs` is one of the two states ``flip(_:shopper:flips:)`` writes.
    private static func isWhole(_ inputs: PricingInputs) -> Bool {
        let products = inputs.basket.lines.map(\.product.id)
        if inputs.basket.promotionCode == nil {
            return products == [ProductID(2)] && inputs.promotion == nil
        }
        return products == [ProductID(1)] && inputs.promotion?.code == inputs.basket.promotionCode
    }

    /// Reads with `read` until the flips are done; answers the reads made and those that mixed states.
    private static func readWhileFlipping(
        _ database: StoreDatabase, shopper: ShopperID, read: @escaping @Sendable () async throws -> PricingInputs
    ) async throws -> (reads: Int, mixed: Int) {
        let done = Locked(false)
        let reader = Task {
            var reads = 0
            var mixed = 0
            while !done.withLock({ $0 }) || reads < 100 {
                if !isWhole(try await read()) { mixed += 1 }
                reads += 1
                // An SQLite lookup runs on this thread without suspending: leave the pool's
                // threads to the writes' continuations now and then.
                if reads % 16 == 0 { await Task.yield() }
            }
            return (reads, mixed)
        }
        do {
            try await flip(database, shopper: shopper, flips: 400)
        } catch {
            done.withLock { $0 = true }
            _ = try? await reader.value
            throw error
        }
        done.withLock { $0 = true }
        return try await reader.value
    }

    @Test("what pricing a basket needs is read at one moment while the basket changes", arguments: Backend.allCases)
    func pricingInputs(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let shopper = try await makeShopper(database, lines: [(2, 1)])
            let (reads, mixed) = try await Self.readWhileFlipping(database, shopper: shopper) {
                try await database.baskets.pricingInputs(for: shopper, customer: nil)
            }
            #expect(reads >= 100)
            #expect(mixed == 0, "\(mixed) of \(reads) reads mixed two states of the basket")
        }
    }

    @Test(
        "a session with what pricing its basket needs is read at one moment while the basket changes",
        arguments: Backend.allCases)
    func sessionWithPricingInputs(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let hash = Array("consistent reads".utf8)
            let shopper = try await database.sessions.createAnonymousSession(
                tokenHash: hash, now: testNow, expiresAt: testNow.addingTimeInterval(3_600))
            _ = try await database.baskets.setQuantity(try quantity(1), of: ProductID(2), for: shopper, now: testNow)
            let (reads, mixed) = try await Self.readWhileFlipping(database, shopper: shopper) {
                guard let read = try await database.sessions.sessionWithPricingInputs(tokenHash: hash, now: testNow)
                else { throw TestFailure("the session was not found") }
                return read.pricing
            }
            #expect(reads >= 100)
            #expect(mixed == 0, "\(mixed) of \(reads) reads mixed two states of the basket")
        }
    }
}
