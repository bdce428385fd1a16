import Dispatch
import Foundation
import Testing
@testable import SignupCore

@Suite struct VirtualTimeSchedulerTests {
    @Test func runsWorkByDueTimeThenInInsertionOrder() {
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        scheduler.schedule(after: .milliseconds(20)) { log.append("b@\(scheduler.now.milliseconds)") }
        scheduler.schedule(after: .milliseconds(10)) { log.append("a@\(scheduler.now.milliseconds)") }
        scheduler.schedule(after: .milliseconds(20)) { log.append("c@\(scheduler.now.milliseconds)") }
        scheduler.schedule(after: .zero) { log.append("z@\(scheduler.now.milliseconds)") }
        #expect(log.isEmpty)
        #expect(scheduler.run() == 4)
        #expect(log == ["z@0", "a@10", "b@20", "c@20"])
        #expect(scheduler.now.milliseconds == 20)
    }

    @Test func advanceRunsOnlyWhatIsDueAndLeavesTheClockAtTheTarget() {
        let scheduler = VirtualTimeScheduler()
        var log: [Int64] = []
        for delay in [5, 10, 15] as [Int64] {
            scheduler.schedule(after: .milliseconds(delay)) { log.append(scheduler.now.milliseconds) }
        }
        scheduler.advance(by: .milliseconds(10))
        #expect(log == [5, 10])
        #expect(scheduler.now.milliseconds == 10)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(to: TimePoint(milliseconds: 12))
        #expect(log == [5, 10])
        #expect(scheduler.nextDueTime == TimePoint(milliseconds: 15))
        scheduler.advance(to: TimePoint(milliseconds: 100))
        #expect(log == [5, 10, 15])
        #expect(scheduler.now.milliseconds == 100)
    }

    @Test func workScheduledWhileRunningRunsInTheSameAdvanceWhenDue() {
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        scheduler.schedule(after: .milliseconds(10)) {
            log.append("outer")
            scheduler.schedule(after: .zero) { log.append("same instant") }
            scheduler.schedule(after: .milliseconds(5)) { log.append("later@\(scheduler.now.milliseconds)") }
            scheduler.schedule(after: .milliseconds(50)) { log.append("too late") }
        }
        scheduler.advance(by: .milliseconds(20))
        #expect(log == ["outer", "same instant", "later@15"])
    }

    @Test func cancelledWorkNeverRunsAndIsNotCounted() {
        let scheduler = VirtualTimeScheduler()
        var ran = false
        let timer = scheduler.schedule(after: .milliseconds(10)) { ran = true }
        #expect(scheduler.pendingCount == 1)
        timer.dispose()
        timer.dispose()
        #expect(scheduler.pendingCount == 0)
        #expect(scheduler.run() == 0)
        #expect(!ran)
    }

    /// Timers that have run are armed again for later work, but only when nothing holds them:
    /// disposing of a timer that has run, and that its holder kept, must never cancel other work.
    @Test func aTimerThatHasRunIsReusedOnlyWhenNothingHoldsIt() {
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        let kept = scheduler.schedule(after: .milliseconds(1)) { log.append("kept") }
        scheduler.schedule(after: .milliseconds(2)) { log.append("dropped") }
        scheduler.run()
        let first = scheduler.schedule(after: .milliseconds(5)) { log.append("first") }
        let second = scheduler.schedule(after: .milliseconds(5)) { log.append("second") }
        // The dropped timer is armed again; the kept one is not, so its disposal changes nothing.
        #expect((first as AnyObject) !== (kept as AnyObject) && (second as AnyObject) !== (kept as AnyObject))
        kept.dispose()
        #expect(scheduler.pendingCount == 2)
        first.dispose()
        scheduler.schedule(after: .milliseconds(1)) { log.append("third") }
        #expect(scheduler.run() == 2)
        #expect(log == ["kept", "dropped", "third", "second"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func manyCancelledTimersAreCompactedAway() {
        let scheduler = VirtualTimeScheduler()
        var fired: [Int] = []
        for index in 0..<10_000 {
            let timer = scheduler.schedule(after: .milliseconds(Int64(index % 97))) { fired.append(index) }
            if index % 100 != 0 { timer.dispose() }
            // Cancelled timers are dropped once they outnumber live ones (and are more than 64).
            #expect(scheduler.storedTimerCount <= 2 * (index / 100 + 1) + 66)
        }
        #expect(scheduler.pendingCount == 100)
        scheduler.run()
        #expect(fired.count == 100)
        #expect(fired.allSatisfy { $0 % 100 == 0 })
    }
}

@Suite struct RealTimeSchedulerTests {
    /// Order and lower bounds only: wall-clock machines are noisy, so no upper bound is asserted.
    @Test func runsOnTheEventLoopInDueOrderNoSooner() {
        let loop = EventLoop(label: "test.loop")
        let done = DispatchSemaphore(value: 0)
        let log = LockedLog()
        loop.executeTransferring {
            let scheduler = RealTimeScheduler(loop: loop)
            let start = scheduler.now
            scheduler.schedule(after: .milliseconds(30)) {
                loop.assertOnLoop()
                log.append("late", elapsed: scheduler.now - start)
                done.signal()
            }
            scheduler.schedule(after: .milliseconds(5)) {
                log.append("early", elapsed: scheduler.now - start)
            }
            let cancelled = scheduler.schedule(after: .milliseconds(1)) { log.append("cancelled", elapsed: .zero) }
            cancelled.dispose()
        }
        done.wait()
        let entries = log.entries
        #expect(entries.map(\.0) == ["early", "late"])
        #expect(entries[0].1 >= .milliseconds(5))
        #expect(entries[1].1 >= .milliseconds(30))
    }
}

extension RealTimeSchedulerTests {
    /// Issue 36 §5: a timer that falls due while the loop is busy runs before the input that
    /// waited behind the busy work, stamped with its due time, as a virtual clock runs them.
    @Test func aTimerDueWhileTheLoopIsBusyRunsBeforeTheInputThatWaitedStampedWhenDue() {
        let loop = EventLoop(label: "test.loop")
        let log = LockedLog()
        let scheduler = loop.sync { UncheckedTransfer(RealTimeScheduler(loop: loop)) }.value
        let due = loop.sync {
            scheduler.schedule(after: .milliseconds(1)) { log.append("timer", elapsed: scheduler.now - .origin) }
            return loop.currentStepStart + 1_000_000
        }
        let busy = DispatchSemaphore(value: 0)
        loop.execute { busy.wait() }
        loop.executeTransferring { log.append("input", elapsed: scheduler.now - .origin) }
        // Holds the loop until the timer is overdue, so Dispatch can only fire it late.
        while DispatchTime.now().uptimeNanoseconds <= due { sched_yield() }
        busy.signal()
        loop.sync {}
        let entries = log.entries
        #expect(entries.map(\.0) == ["timer", "input"])
        #expect(entries.first?.1 == .milliseconds(1))
        #expect(entries.last.map { $0.1 >= .milliseconds(1) } == true)
    }
}

/// Collects entries from the loop for the test thread to read after it has waited.
private final class LockedLog: @unchecked Sendable {
    private let lock = DispatchQueue(label: "test.log")
    private var storage: [(String, TimeSpan)] = []
    func append(_ name: String, elapsed: TimeSpan) { lock.sync { storage.append((name, elapsed)) } }
    var entries: [(String, TimeSpan)] { lock.sync { storage } }
}
