import Concurrency
import Foundation
import TestWaiting
import Testing

/// A resource that remembers which thread made it and checks every use against it.
final class ThreadBoundResource {
    let owner = currentThreadID()
    let number: Int
    private let released: Locked<[Int: Bool]>

    init(number: Int, released: Locked<[Int: Bool]>) {
        self.number = number
        self.released = released
    }

    /// Whether the calling thread is the one that made the resource.
    var isOnOwnThread: Bool { currentThreadID() == owner }

    deinit {
        let onOwnThread = isOnOwnThread
        let number = number
        released.withLock { $0[number] = onOwnThread }
    }
}

/// Counts how many jobs run at once and the most that ever did.
final class Concurrent: Sendable {
    private let state = Locked((now: 0, most: 0))

    func enter() {
        state.withLock { state in
            state.now += 1
            state.most = max(state.most, state.now)
        }
    }

    func leave() {
        state.withLock { $0.now -= 1 }
    }

    var most: Int { state.current.most }
}

@Suite struct BlockingPoolTests {
    @Test func runsAtMostAsManyJobsAtOnceAsItHasThreads() async throws {
        let pool = await BlockingPool.start(name: "Test.bounded", threads: 3) { _ in () }
        let concurrent = Concurrent()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<30 {
                group.addTask {
                    try await pool.run { _ in
                        concurrent.enter()
                        usleep(5_000)
                        concurrent.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        await pool.close()
        #expect(concurrent.most == 3)
    }

    @Test func runsJobsInTheOrderTheyWereQueued() async throws {
        let pool = await BlockingPool.start(name: "Test.fifo", threads: 1) { _ in [Int]() }
        let gate = Gate()
        pool.submit { _ in gate.pass() }
        #expect(try await eventually { pool.queuedJobCount == 0 })
        for number in 0..<200 {
            pool.submit { order in order.append(number) }
        }
        #expect(pool.queuedJobCount == 200)
        gate.open()
        let order = try await pool.run { order in order }
        await pool.close()
        #expect(order == Array(0..<200))
    }

    @Test func aPoolOfSeveralThreadsAlsoTakesJobsOldestFirst() async throws {
        // Every thread is held by a job of its own; one is let go and serves the queue alone.
        let pool = await BlockingPool.start(name: "Test.fifo-many", threads: 4) { _ in () }
        let gates = (0..<4).map { _ in Gate() }
        let holders = Locked(0)
        for gate in gates {
            pool.submit { _ in
                holders.withLock { $0 += 1 }
                gate.pass()
            }
        }
        #expect(try await eventually { holders.current == 4 })
        let started = Locked<[Int]>([])
        for number in 0..<50 {
            pool.submit { _ in started.withLock { $0.append(number) } }
        }
        gates[0].open()
        #expect(try await eventually { started.current.count == 50 })
        #expect(started.current == Array(0..<50))
        for gate in gates { gate.open() }
        await pool.close()
    }

    @Test func eachResourceIsMadeUsedAndReleasedOnItsOwnThreadOnly() async throws {
        let released = Locked<[Int: Bool]>([:])
        let pool = await BlockingPool.start(name: "Test.owned", threads: 4) { index in
            ThreadBoundResource(number: index, released: released)
        }
        let uses = Locked<[Int: Int]>([:])
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    try await pool.run { resource in
                        uses.withLock { $0[resource.number, default: 0] += 1 }
                        return resource.isOnOwnThread
                    }
                }
            }
            for try await onOwnThread in group {
                #expect(onOwnThread)
            }
        }
        await pool.close()
        #expect(Set(uses.current.keys).isSubset(of: [0, 1, 2, 3]))
        #expect(uses.current.values.reduce(0, +) == 200)
        // Closing returned only after every resource was released, each on its own thread.
        #expect(released.current == [0: true, 1: true, 2: true, 3: true])
    }

    @Test func aJobsErrorReachesItsCaller() async throws {
        let pool = await BlockingPool.start(name: "Test.errors", threads: 2) { _ in 0 }
        let error = await #expect(throws: DeliberateError.self) {
            try await pool.run { (_: inout Int) throws -> Int in throw DeliberateError(tag: "job") }
        }
        #expect(error?.tag == "job")
        // The thread goes on serving.
        #expect(try await pool.run { value in value + 1 } == 1)
        await pool.close()
    }

    @Test func aResourcesChangesLastForTheThreadsNextJob() async throws {
        let pool = await BlockingPool.start(name: "Test.inout", threads: 1) { _ in 0 }
        for _ in 0..<10 {
            try await pool.run { counter in counter += 1 }
        }
        #expect(try await pool.run { counter in counter } == 10)
        await pool.close()
    }

    @Test func closeWaitsForRunningAndQueuedJobsThenRefusesNewOnes() async throws {
        let pool = await BlockingPool.start(name: "Test.close", threads: 2) { _ in () }
        let gate = Gate()
        let finished = Locked(0)
        for _ in 0..<6 {
            pool.submit { _ in
                gate.pass()
                usleep(2_000)
                finished.withLock { $0 += 1 }
            }
        }
        let lateJobRan = Locked(false)
        pool.closeWithoutWaiting()
        // Closed: new work is refused at once, while the jobs already queued are still to run.
        #expect(!pool.submit { _ in lateJobRan.withLock { $0 = true } })
        let error = await #expect(throws: BlockingPoolError.self) { try await pool.run { _ in 1 } }
        #expect(error == .closed)

        let closed = Locked(false)
        let closing = Task {
            await pool.close()
            closed.withLock { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(!closed.current, "close returned while jobs were still running")
        #expect(finished.current == 0)
        gate.open()
        await closing.value
        #expect(finished.current == 6)
        #expect(!lateJobRan.current)
        // Closing again is harmless.
        await pool.close()
        pool.closeWithoutWaiting()
        pool.closeBlockingUntilEnded()
    }

    @Test func aThreadTakesUpToItsBatchLimitAtOnce() async throws {
        // The resource collects the jobs of the current batch; afterBatch records its size.
        struct Batch {
            var current: [Int] = []
            var sizes: [Int] = []
        }
        let pool = await BlockingPool.start(
            name: "Test.batches", threads: 1, batchLimit: 4,
            afterBatch: { batch in
                batch.sizes.append(batch.current.count)
                batch.current.removeAll()
            },
            makeResource: { _ in Batch() })
        let gate = Gate()
        pool.submit { batch in
            batch.current.append(-1)
            gate.pass()
        }
        #expect(try await eventually { pool.queuedJobCount == 0 })
        for number in 0..<10 {
            pool.submit { batch in batch.current.append(number) }
        }
        let reading = Task { try await pool.run { batch in batch.sizes } }
        #expect(try await eventually { pool.queuedJobCount == 11 })
        gate.open()
        let sizes = try await reading.value
        await pool.close()
        // The holding job alone, then the ten queued behind it four at a time; the last batch
        // also holds the job that read the sizes.
        #expect(sizes == [1, 4, 4])
    }

    @Test func aResourceThatCannotBeMadeFailsTheStartAndEndsEveryThread() async throws {
        let released = Locked<[Int: Bool]>([:])
        let error = await #expect(throws: DeliberateError.self) {
            _ = try await BlockingPool.start(name: "Test.failing", threads: 4) { index throws(DeliberateError) in
                if index == 2 { throw DeliberateError(tag: "resource 2") }
                return ThreadBoundResource(number: index, released: released)
            }
        }
        #expect(error?.tag == "resource 2")
        // Every resource that was made has been released, on its own thread, before the start threw.
        #expect(released.current == [0: true, 1: true, 3: true])
    }

    @Test func theBlockingStartWaitsForEveryResourceAndFailsLikeTheAsyncOne() async throws {
        let released = Locked<[Int: Bool]>([:])
        let outcome = Locked<(afterClose: [Int: Bool], error: DeliberateError?)?>(nil)
        // On a thread of its own: the blocking calls must never run on the concurrency pool.
        await onThreads(1) { _ in
            let pool = BlockingPool(name: "Test.blocking", threads: 2) { index in
                ThreadBoundResource(number: index, released: released)
            }
            pool.closeBlockingUntilEnded()
            let afterClose = released.current
            var failure: DeliberateError?
            do throws(DeliberateError) {
                _ = try BlockingPool(name: "Test.blocking-failing", threads: 3) { index throws(DeliberateError) in
                    if index == 0 { throw DeliberateError(tag: "blocking") }
                    return ThreadBoundResource(number: 10 + index, released: released)
                }
            } catch {
                failure = error
            }
            outcome.withLock { $0 = (afterClose, failure) }
        }
        let result = try #require(outcome.current)
        #expect(result.afterClose == [0: true, 1: true])
        #expect(result.error?.tag == "blocking")
        #expect(released.current == [0: true, 1: true, 11: true, 12: true])
    }

    @Test func cancellingACallerNeitherWithdrawsNorInterruptsItsJob() async throws {
        let pool = await BlockingPool.start(name: "Test.cancel", threads: 1) { _ in () }
        let gate = Gate()
        pool.submit { _ in gate.pass() }
        let ran = Locked(false)
        let queued = Task {
            try await pool.run { _ in
                ran.withLock { $0 = true }
                return "done"
            }
        }
        #expect(try await eventually { pool.queuedJobCount == 1 })
        queued.cancel()
        gate.open()
        // The cancelled caller still gets the job's result: the job was neither dropped nor stopped.
        #expect(try await queued.value == "done")
        #expect(ran.current)
        await pool.close()
    }

    @Test func releasingAnOpenPoolLetsItsThreadsDrainAndEnd() async throws {
        let released = Locked<[Int: Bool]>([:])
        let ran = Locked(0)
        do {
            let pool = await BlockingPool.start(name: "Test.released", threads: 2) { index in
                ThreadBoundResource(number: index, released: released)
            }
            for _ in 0..<20 {
                pool.submit { _ in
                    usleep(1_000)
                    ran.withLock { $0 += 1 }
                }
            }
        }
        #expect(try await eventually { released.current.count == 2 })
        #expect(ran.current == 20)
        #expect(released.current == [0: true, 1: true])
    }
}
