import Concurrency
import Foundation
import TestWaiting
import Testing

@Suite("DeadlineTimer") struct DeadlineTimerTests {
    /// Records when each action ran, by name.
    final class Log: Sendable {
        private let entries = Locked<[(String, ContinuousClock.Instant)]>([])

        func record(_ name: String) {
            let now = ContinuousClock.now
            entries.withLock { $0.append((name, now)) }
        }

        var names: [String] { entries.withLock { $0.map(\.0) } }
        func time(of name: String) -> ContinuousClock.Instant? { entries.withLock { $0.first { $0.0 == name }?.1 } }
    }

    @Test func anActionRunsOnceItsDeadlineHasPassedAndNotBefore() async throws {
        let timer = DeadlineTimer(name: "test.deadlines")
        let log = Log()
        let start = ContinuousClock.now
        _ = timer.after(.milliseconds(80)) { log.record("late") }
        _ = timer.after(.milliseconds(20)) { log.record("early") }
        #expect(timer.pendingCount == 2)
        #expect(try await eventually { log.names.count == 2 })
        #expect(log.names == ["early", "late"])
        let early = try #require(log.time(of: "early"))
        let late = try #require(log.time(of: "late"))
        #expect(start.duration(to: early) >= .milliseconds(20))
        #expect(start.duration(to: late) >= .milliseconds(80))
        #expect(timer.pendingCount == 0)
        await timer.stop()
    }

    @Test func anEarlierDeadlineScheduledLaterWakesTheThread() async throws {
        // The thread sleeps until the first deadline, an hour away; a second, 10 ms away, must
        // not wait for it.
        let timer = DeadlineTimer(name: "test.deadlines")
        let log = Log()
        let far = timer.after(.seconds(3_600)) { log.record("far") }
        try await Task.sleep(for: .milliseconds(20))
        _ = timer.after(.milliseconds(10)) { log.record("near") }
        #expect(try await eventually(timeout: .seconds(5)) { log.names == ["near"] })
        far.cancel()
        #expect(timer.pendingCount == 0)
        await timer.stop()
        #expect(log.names == ["near"])
    }

    @Test func aCancelledActionNeverRuns() async throws {
        let timer = DeadlineTimer(name: "test.deadlines")
        let log = Log()
        let cancelled = timer.after(.milliseconds(10)) { log.record("cancelled") }
        _ = timer.after(.milliseconds(30)) { log.record("kept") }
        cancelled.cancel()
        cancelled.cancel()
        #expect(timer.pendingCount == 1)
        #expect(try await eventually { log.names == ["kept"] })
        try await Task.sleep(for: .milliseconds(30))
        #expect(log.names == ["kept"])
        await timer.stop()
    }

    @Test func manyCancelledTimeoutsLeaveTheLiveOnesToRun() async throws {
        // Thousands of timeouts cancelled in time, as a checkout's provider deadlines are, with a
        // few left to run among them: the heap is rebuilt without the cancelled ones on the way.
        // The deadlines lie two seconds ahead, so that none is due before the 20,000 are set, even
        // on a machine busy with the rest of the suite.
        let timer = DeadlineTimer(name: "test.deadlines")
        let log = Log()
        for index in 0..<20_000 {
            let timeout = timer.after(.seconds(2) + .milliseconds(index % 50)) { log.record("\(index)") }
            if index % 1_000 != 0 { timeout.cancel() }
        }
        #expect(timer.pendingCount == 20)
        #expect(try await eventually(timeout: .seconds(10)) { log.names.count == 20 })
        #expect(Set(log.names) == Set((0..<20).map { "\($0 * 1_000)" }))
        #expect(timer.pendingCount == 0)
        await timer.stop()
    }

    @Test func aDeadlineThatIsNotAheadRunsAtOnce() async throws {
        let timer = DeadlineTimer(name: "test.deadlines")
        let log = Log()
        _ = timer.after(.zero) { log.record("zero") }
        _ = timer.after(.milliseconds(-5)) { log.record("past") }
        #expect(try await eventually { Set(log.names) == ["zero", "past"] })
        await timer.stop()
    }

    @Test func stoppingEndsTheThreadAndDropsWhatIsPending() async throws {
        let timer = DeadlineTimer(name: "test.deadlines")
        let log = Log()
        _ = timer.after(.milliseconds(20)) { log.record("pending") }
        await timer.stop()
        #expect(timer.pendingCount == 0)
        try await Task.sleep(for: .milliseconds(50))
        #expect(log.names.isEmpty)
    }
}
