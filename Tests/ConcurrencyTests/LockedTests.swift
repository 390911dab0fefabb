import Concurrency
import Foundation
import Testing

@Suite struct LockedTests {
    /// What the contention test changes: `inside` counts the threads inside the lock at once.
    struct Tally {
        var count = 0
        var inside = 0
        var mostInside = 0
    }

    @Test func onlyOneThreadAtATimeUnderContention() async {
        let tally = Locked(Tally())
        let threads = 8
        let rounds = 50_000
        await onThreads(threads) { _ in
            for _ in 0..<rounds {
                tally.withLock { tally in
                    tally.inside += 1
                    tally.mostInside = max(tally.mostInside, tally.inside)
                    // A read-modify-write with a gap: lost updates show without mutual exclusion.
                    let count = tally.count
                    if count % 1_000 == 0 { sched_yield() }
                    tally.count = count + 1
                    tally.inside -= 1
                }
            }
        }
        let result = tally.current
        #expect(result.count == threads * rounds)
        #expect(result.mostInside == 1)
        #expect(result.inside == 0)
    }

    @Test func aTypedErrorPassesThroughAndTheLockIsReleased() {
        let value = Locked(1)
        let error = #expect(throws: DeliberateError.self) {
            try value.withLock { (value: inout Int) throws(DeliberateError) in
                value = 2
                throw DeliberateError(tag: "inside")
            }
        }
        #expect(error?.tag == "inside")
        // The change made before the throw stays, and the lock is free again.
        #expect(value.withLock { $0 } == 2)
    }

    @Test func typedThrowsKeepTheirTypeWithoutACast() {
        let value = Locked(0)
        do {
            try value.withLock { (_: inout Int) throws(DeliberateError) in throw DeliberateError() }
        } catch {
            // `error` is a DeliberateError here: no `as?` needed.
            #expect(error.tag == "deliberate")
        }
        // A closure that throws nothing needs no `try`.
        value.withLock { $0 += 1 }
        #expect(value.current == 1)
    }

    @Test func aWaitingThreadWakesWhenTheValueIsReady() async {
        let box = Locked<Int?>(nil)
        let seen = Locked<[Int]>([])
        await onThreads(4) { index in
            if index == 0 {
                usleep(20_000)
                box.withLock(waking: .all) { $0 = 42 }
            } else {
                let value = box.wait { $0 }
                seen.withLock { $0.append(value) }
            }
        }
        #expect(seen.current == [42, 42, 42])
    }

    @Test func wakingOneWakesOneWaiterPerChange() async {
        // Three consumers each take one token; three wakes of one each are enough.
        let tokens = Locked(0)
        let taken = Locked(0)
        await onThreads(4) { index in
            if index == 0 {
                for _ in 0..<3 {
                    usleep(5_000)
                    tokens.withLock(waking: .one) { $0 += 1 }
                }
            } else {
                tokens.wait { tokens -> Void? in
                    guard tokens > 0 else { return nil }
                    tokens -= 1
                    return ()
                }
                taken.withLock { $0 += 1 }
            }
        }
        #expect(taken.current == 3)
        #expect(tokens.current == 0)
    }

    @Test func aTimedWaitGivesUpWhenNothingHappens() async throws {
        let box = Locked(false)
        let outcome = Locked<(ready: Bool?, elapsed: Duration)?>(nil)
        await onThreads(1) { _ in
            let clock = ContinuousClock()
            let start = clock.now
            let ready = box.wait(until: { $0 ? true : nil }, timeout: .milliseconds(50))
            outcome.withLock { $0 = (ready, start.duration(to: clock.now)) }
        }
        let result = try #require(outcome.current)
        #expect(result.ready == nil)
        #expect(result.elapsed >= .milliseconds(50))
        #expect(result.elapsed < .seconds(5))
    }

    @Test func aTimedWaitReturnsAsSoonAsTheValueIsReady() async throws {
        let box = Locked(false)
        let outcome = Locked<(ready: Bool?, elapsed: Duration)?>(nil)
        await onThreads(2) { index in
            if index == 0 {
                usleep(10_000)
                box.withLock(waking: .all) { $0 = true }
            } else {
                let clock = ContinuousClock()
                let start = clock.now
                let ready = box.wait(until: { $0 ? true : nil }, timeout: .seconds(30))
                outcome.withLock { $0 = (ready, start.duration(to: clock.now)) }
            }
        }
        let result = try #require(outcome.current)
        #expect(result.ready == true)
        #expect(result.elapsed < .seconds(10))
    }

    @Test func aWaitWhoseValueIsAlreadyReadyDoesNotBlock() {
        let box = Locked(7)
        #expect(box.wait { $0 } == 7)
        #expect(box.wait(until: { $0 }, timeout: .zero) == 7)
        #expect(box.wait(until: { _ -> Int? in nil }, timeout: .zero) == nil)
    }
}
