import Testing

@testable import CheckoutKit

/// Time-ordered identifiers: the form of the random ones, sorting by the instant they were made.
@Suite struct IdentifierTests {
    struct Counting: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            return state
        }
    }

    @Test("well formed, sorting by their instant, distinct within one millisecond")
    func orderedIdentifiers() {
        var generator = Counting(state: 1)
        let instants: [UInt64] = [
            0, 1, 31, 32, 1_796_213_310_000, 1_796_213_310_001, 1_796_213_311_000, 0xFFFF_FFFF_FFFF,
        ]
        let made = instants.map { OpaqueIdentifier.makeOrdered(prefix: "ord_", milliseconds: $0, using: &generator) }
        #expect(made.allSatisfy { OpaqueIdentifier.isWellFormed($0, prefix: "ord_") })
        #expect(made == made.sorted(), "the text sorts as the instants do")
        #expect(made[0].hasPrefix("ord_0000000000"))
        #expect(made[2].hasPrefix("ord_000000000z"))
        #expect(made[3].hasPrefix("ord_0000000010"))
        #expect(made.last?.hasPrefix("ord_7zzzzzzzzz") == true)
        let sameInstant = (0..<1_000).map { _ in
            OpaqueIdentifier.makeOrdered(prefix: "pay_", milliseconds: 42, using: &generator)
        }
        #expect(Set(sameInstant).count == 1_000)
        #expect(Set(sameInstant.map { $0.prefix(14) }).count == 1)
    }

    @Test("the identifiers the checkout indexes are time-ordered and well formed")
    func storeIdentifiers() async throws {
        let first = OrderID.random()
        try await Task.sleep(for: .milliseconds(2))
        let second = OrderID.random()
        #expect(first.rawValue < second.rawValue)
        #expect(OrderID(parsing: second.rawValue) == second)
        #expect(RefundID(parsing: RefundID.random().rawValue) != nil)
    }

    @Test("identifiers from the system's random source: well formed, and none alike")
    func systemRandomIdentifiers() {
        let random = (0..<2_000).map { _ in OpaqueIdentifier.make(prefix: "call_") }
        let ordered = (0..<2_000).map { _ in OpaqueIdentifier.makeOrdered(prefix: "pay_") }
        #expect(random.allSatisfy { OpaqueIdentifier.isWellFormed($0, prefix: "call_") })
        #expect(ordered.allSatisfy { OpaqueIdentifier.isWellFormed($0, prefix: "pay_") })
        #expect(Set(random).count == random.count)
        #expect(Set(ordered).count == ordered.count)
        // Every one of the 32 characters turns up in each position (the last holds the 128 bits'
        // 3 left over: 8 characters).
        for position in 0..<26 {
            let characters = Set(random.map { Array($0.utf8)[5 + position] })
            #expect(characters.count == (position == 25 ? 8 : 32), "position \(position)")
        }
    }

    @Test("two words drawn at once, then more from the same source, none alike")
    func systemRandomWords() {
        var words = SystemRandomWords()
        let drawn = (0..<6).map { _ in words.next() }
        #expect(Set(drawn).count == drawn.count)
        var other = SystemRandomWords()
        #expect(other.next() != drawn[0])
    }
}
