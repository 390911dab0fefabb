import Concurrency
import Foundation
import Testing

@testable import HTTPServer

/// The lock-free values the network threads share: what one thread stores, every other reads,
/// and of values published at once exactly one stays.
struct AtomicsTests {
    @Test func theFirstValuePublishedStays() {
        let slot = PublishedOnce<(server: Int, name: String)>()
        #expect(slot.value == nil)
        #expect(slot.publish((1, "first")))
        #expect(!slot.publish((2, "second")))
        #expect(slot.value?.server == 1 && slot.value?.name == "first")
    }

    @Test func ofValuesPublishedAtOnceOneStaysAndEveryThreadReadsIt() {
        for _ in 0..<50 {
            let slot = PublishedOnce<Int>()
            let winners = AtomicWord(0)
            let seen = Locked([Int]())
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                if slot.publish(index) { winners.add(1) }
                let value = slot.value ?? -1
                seen.withLock { $0.append(value) }
            }
            #expect(winners.load() == 1)
            let value = slot.value
            #expect(value != nil && seen.withLock { $0.count == 8 && $0.allSatisfy { $0 == value } })
        }
    }

    @Test func wordsAddReplaceAndStoreAcrossThreads() {
        let word = AtomicWord(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { word.add(1) }
        }
        #expect(word.load() == 80_000)
        word.add(UInt64.max)  // minus one
        #expect(word.load() == 79_999)
        #expect(!word.replace(5, with: 6))
        #expect(word.replace(79_999, with: 7))
        #expect(word.load() == 7)
        // Of many threads replacing the same value, one does.
        let replaced = AtomicWord(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if word.replace(7, with: 8) { replaced.add(1) }
        }
        #expect(replaced.load() == 1 && word.load() == 8)
    }
}
