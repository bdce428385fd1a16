import Testing
@testable import SignupCore

/// Time arithmetic never traps, and nothing due past the horizon ever runs.
@Suite struct TimeHorizonTests {
    @Test func arithmeticSaturatesAtTheBoundsOfInt64() {
        let latest = TimePoint(milliseconds: .max)
        #expect(latest + .milliseconds(1) == latest)
        #expect(TimePoint(milliseconds: .min) + .milliseconds(-1) == TimePoint(milliseconds: .min))
        #expect(TimePoint(milliseconds: .min) - TimePoint(milliseconds: 1) == .milliseconds(.min))
        #expect(latest - TimePoint(milliseconds: -1) == .milliseconds(.max))
        #expect(TimePoint(milliseconds: .min) - .milliseconds(1) == TimePoint(milliseconds: .min))
        #expect(TimeSpan.seconds(.max) == .milliseconds(.max))
        #expect(TimeSpan.seconds(.min) == .milliseconds(.min))
        #expect(TimeSpan.milliseconds(.max) + .milliseconds(.max) == .milliseconds(.max))
        #expect(TimePoint(milliseconds: 5) + .milliseconds(7) == TimePoint(milliseconds: 12))
    }

    @Test func workDuePastTheHorizonNeverRuns() {
        let scheduler = VirtualTimeScheduler(now: TimePoint(milliseconds: TimePoint.horizon.milliseconds - 10))
        var log: [Int64] = []
        scheduler.schedule(after: .milliseconds(10)) { log.append(scheduler.now.milliseconds) }
        scheduler.schedule(after: .milliseconds(11)) { log.append(-1) }
        scheduler.schedule(after: .milliseconds(.max)) { log.append(-2) }
        #expect(scheduler.nextDueTime == .horizon)
        #expect(scheduler.run() == 1)
        #expect(log == [TimePoint.horizon.milliseconds])
        #expect(scheduler.nextDueTime == nil)
        #expect(scheduler.pendingCount == 2)
        scheduler.advance(by: .milliseconds(.max))
        scheduler.advance(to: TimePoint(milliseconds: .max))
        #expect(log == [TimePoint.horizon.milliseconds])
        #expect(scheduler.now == .horizon)
    }

    @Test func aClockMadePastTheHorizonStartsAtIt() {
        #expect(VirtualTimeScheduler(now: TimePoint(milliseconds: .max)).now == .horizon)
    }
}
