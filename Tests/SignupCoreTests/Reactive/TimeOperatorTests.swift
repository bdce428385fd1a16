import Testing
@testable import SignupCore

@Suite struct TimeOperatorTests {
    @Test func debounceEmitsOnlyAfterAQuietPeriod() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [
            next(100, "a"), next(150, "al"), next(200, "ali"), next(600, "alice"), next(650, "bob"), completed(700),
        ])
        let events = run(scheduler) { source.stream.debounce(.milliseconds(300), on: scheduler) }
        #expect(events == [.next(500, "ali"), .next(700, "bob"), .completed(700)])
        #expect(source.subscriptions == [SubscriptionLog(0, 700)])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func debounceDropsThePendingElementOnError() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), failed(20)])
        let events = run(scheduler) { source.stream.debounce(.milliseconds(50), on: scheduler) }
        #expect(events == [.error(20, "boom")])
        #expect(scheduler.now.milliseconds == 20)
    }

    @Test func debounceCancelsItsTimerWhenDisposed() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1)])
        let events = run(scheduler, disposeAt: 30) { source.stream.debounce(.milliseconds(50), on: scheduler) }
        #expect(events == [])
        #expect(source.subscriptions == [SubscriptionLog(0, 30)])
        #expect(scheduler.now.milliseconds == 30)
    }

    @Test func throttleEmitsTheFirstAndTheLatestOfEachWindow() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [
            next(10, 1), next(20, 2), next(30, 3), next(70, 4), next(200, 5), completed(210),
        ])
        let events = run(scheduler) { source.stream.throttle(.milliseconds(50), on: scheduler) }
        // 1 opens [10,60); 3 is the latest there and opens [60,110), where 4 is the latest.
        #expect(events == [.next(10, 1), .next(60, 3), .next(110, 4), .next(200, 5), .completed(210)])
    }

    @Test func throttleWithoutLatestDropsEverythingInsideAWindow() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), next(20, 2), next(65, 3), completed(70)])
        let events = run(scheduler) { source.stream.throttle(.milliseconds(50), latest: false, on: scheduler) }
        #expect(events == [.next(10, 1), .next(65, 3), .completed(70)])
    }

    @Test func throttleCompletesAfterFlushingThePendingLatest() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), next(20, 2), completed(30)])
        let events = run(scheduler) { source.stream.throttle(.milliseconds(50), on: scheduler) }
        #expect(events == [.next(10, 1), .next(60, 2), .completed(60)])
        #expect(source.subscriptions == [SubscriptionLog(0, 30)])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func delayShiftsElementsAndCompletionButNotErrors() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), next(10, 2), next(20, 3), completed(30)])
        let events = run(scheduler) { source.stream.delay(.milliseconds(100), on: scheduler) }
        #expect(events == [.next(110, 1), .next(110, 2), .next(120, 3), .completed(130)])

        let failing = HotTestStream(scheduler, [next(140, 1), failed(150)])
        let failed = run(scheduler) { failing.stream.delay(.milliseconds(100), on: scheduler) }
        #expect(failed == [.error(150, "boom")])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func delayCancelsWhatIsStillWaitingWhenDisposed() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), next(20, 2)])
        let events = run(scheduler, disposeAt: 115) { source.stream.delay(.milliseconds(100), on: scheduler) }
        #expect(events == [.next(110, 1)])
        #expect(scheduler.now.milliseconds == 115)
    }
}
