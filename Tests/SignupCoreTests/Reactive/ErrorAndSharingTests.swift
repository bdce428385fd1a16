import Testing
@testable import SignupCore

@Suite struct ErrorAndSharingTests {
    @Test func catchContinuesWithTheFallbackStream() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), failed(20)])
        let fallback = ColdTestStream(scheduler, [next(5, 99), completed(10)])
        var caught: [String] = []
        let events = run(scheduler) {
            source.stream.catch { error in
                caught.append(String(describing: error))
                return fallback.stream
            }
        }
        #expect(events == [.next(10, 1), .next(25, 99), .completed(30)])
        #expect(caught == ["boom"])
        #expect(source.subscriptions == [SubscriptionLog(0, 20)])
        #expect(fallback.subscriptions == [SubscriptionLog(20, 30)])
    }

    @Test func catchAndReturnEndsWithTheReplacement() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, "a"), failed(20)])
        let events = run(scheduler) { source.stream.catchAndReturn("fallback") }
        #expect(events == [.next(10, "a"), .next(20, "fallback"), .completed(20)])
    }

    @Test func shareRunsOneSourceSubscriptionForManySubscribersAndReplaysTheLatest() {
        let scheduler = VirtualTimeScheduler()
        let source = ColdTestStream(scheduler, [next(10, 1), next(20, 2), next(30, 3), completed(40)])
        let shared = source.stream.share(replay: 1)
        let first = Recorder<Int>(scheduler: scheduler)
        let second = Recorder<Int>(scheduler: scheduler)
        scheduler.schedule(after: .zero) { shared.subscribe(first.observer) }
        scheduler.schedule(after: .milliseconds(25)) { shared.subscribe(second.observer) }
        scheduler.run()
        #expect(first.events == [.next(10, 1), .next(20, 2), .next(30, 3), .completed(40)])
        #expect(second.events == [.next(25, 2), .next(30, 3), .completed(40)])
        #expect(source.subscriptions == [SubscriptionLog(0, 40)])
    }

    @Test func shareDisconnectsWhenTheLastSubscriberLeavesAndReconnectsFresh() {
        let scheduler = VirtualTimeScheduler()
        let source = ColdTestStream(scheduler, [next(10, 1), next(20, 2)])
        let shared = source.stream.share(replay: 1)
        let first = Recorder<Int>(scheduler: scheduler)
        let second = Recorder<Int>(scheduler: scheduler)
        let third = Recorder<Int>(scheduler: scheduler)
        let a = SerialDisposable()
        let b = SerialDisposable()
        scheduler.schedule(after: .zero) { a.disposable = shared.subscribe(first.observer) }
        scheduler.schedule(after: .milliseconds(12)) { b.disposable = shared.subscribe(second.observer) }
        scheduler.schedule(after: .milliseconds(15)) { a.dispose() }
        scheduler.schedule(after: .milliseconds(25)) { b.dispose() }
        let c = SerialDisposable()
        scheduler.schedule(after: .milliseconds(30)) { c.disposable = shared.subscribe(third.observer) }
        scheduler.advance(to: TimePoint(milliseconds: 100))
        c.dispose()
        #expect(first.events == [.next(10, 1)])
        #expect(second.events == [.next(12, 1), .next(20, 2)])
        #expect(third.events == [.next(40, 1), .next(50, 2)])
        #expect(source.subscriptions == [SubscriptionLog(0, 25), SubscriptionLog(30, 100)])
    }

    @Test func shareWithoutReplayGivesLateSubscribersOnlyWhatFollows() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), next(20, 2), completed(30)])
        let shared = source.stream.share()
        let late = Recorder<Int>(scheduler: scheduler)
        let early = Recorder<Int>(scheduler: scheduler)
        shared.subscribe(early.observer)
        scheduler.schedule(after: .milliseconds(15)) { shared.subscribe(late.observer) }
        scheduler.run()
        #expect(early.events == [.next(10, 1), .next(20, 2), .completed(30)])
        #expect(late.events == [.next(20, 2), .completed(30)])
        #expect(source.subscriptions == [SubscriptionLog(0, 30)])
    }

    @Test func activityTrackerCountsDownOnCompletionErrorAndDisposal() {
        let scheduler = VirtualTimeScheduler()
        let tracker = ActivityTracker()
        let activity = Recorder<Bool>(scheduler: scheduler)
        let watching = tracker.isActive.subscribe(activity.observer)
        defer { watching.dispose() }
        let completing = ColdTestStream(scheduler, [next(10, 1), completed(20)])
        let failing = ColdTestStream(scheduler, [failed(30, TestError(), Int.self)])
        let endless = ColdTestStream<Int>(scheduler, [])
        let counts = Recorder<Int>(scheduler: scheduler)
        let disposable = SerialDisposable()
        scheduler.schedule(after: .milliseconds(5)) {
            completing.stream.trackActivity(tracker).subscribe()
            failing.stream.trackActivity(tracker).subscribe()
            disposable.disposable = endless.stream.trackActivity(tracker).subscribe()
            counts.observer.onNext(tracker.count)
        }
        scheduler.schedule(after: .milliseconds(27)) { counts.observer.onNext(tracker.count) }
        scheduler.schedule(after: .milliseconds(40)) {
            counts.observer.onNext(tracker.count)
            disposable.dispose()
            counts.observer.onNext(tracker.count)
        }
        scheduler.run()
        #expect(counts.events == [.next(5, 3), .next(27, 2), .next(40, 1), .next(40, 0)])
        #expect(activity.events == [.next(0, false), .next(5, true), .next(40, false)])
    }
}
