import Testing
@testable import SignupCore

@Suite struct BasicOperatorTests {
    @Test func mapTransformsEachElement() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), next(20, 2), completed(30)])
        let events = run(scheduler) { source.stream.map { $0 * 10 } }
        #expect(events == [.next(10, 10), .next(20, 20), .completed(30)])
        #expect(source.subscriptions == [SubscriptionLog(0, 30)])
    }

    @Test func filterKeepsMatchingElementsAndPassesErrors() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), next(20, 2), next(30, 4), failed(40)])
        let events = run(scheduler) { source.stream.filter { $0.isMultiple(of: 2) } }
        #expect(events == [.next(20, 2), .next(30, 4), .error(40, "boom")])
        #expect(source.subscriptions == [SubscriptionLog(0, 40)])
    }

    /// `map` and `filter` keep no sink of their own; the subscriber's still stops a source that
    /// breaks the grammar at its terminal event, and releases it then.
    @Test func statelessOperatorsStillEndAtTheSourcesTerminalEvent() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), completed(20), next(30, 2), next(40, 4), failed(50)])
        let events = run(scheduler) { source.stream.map { $0 * 2 }.filter { $0 > 0 } }
        #expect(events == [.next(10, 2), .completed(20)])
        #expect(source.subscriptions == [SubscriptionLog(0, 20)])
    }

    @Test func scanEmitsEveryIntermediateAccumulation() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), next(20, 2), next(30, 3), completed(40)])
        let events = run(scheduler) { source.stream.scan(100) { $0 + $1 } }
        #expect(events == [.next(10, 101), .next(20, 103), .next(30, 106), .completed(40)])
    }

    @Test func startWithEmitsItsElementsAtSubscriptionTime() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), next(20, 2), completed(30)])
        let events = run(scheduler, subscribeAt: 5) { source.stream.startWith(-1, 0) }
        #expect(events == [.next(5, -1), .next(5, 0), .next(10, 1), .next(20, 2), .completed(30)])
    }

    @Test func distinctUntilChangedDropsRepeatsOfThePreviousElementOnly() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [
            next(10, 1), next(20, 1), next(30, 2), next(40, 2), next(50, 1), completed(60),
        ])
        let events = run(scheduler) { source.stream.distinctUntilChanged() }
        #expect(events == [.next(10, 1), .next(30, 2), .next(50, 1), .completed(60)])
    }

    @Test func distinctUntilChangedByKeyComparesOnlyTheKey() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, "a1"), next(20, "a2"), next(30, "b1"), completed(40)])
        let events = run(scheduler) { source.stream.distinctUntilChanged(key: { $0.first }) }
        #expect(events == [.next(10, "a1"), .next(30, "b1"), .completed(40)])
    }

    @Test func skipDropsTheFirstElements() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), next(20, 2), next(30, 3), completed(40)])
        let events = run(scheduler) { source.stream.skip(2) }
        #expect(events == [.next(30, 3), .completed(40)])
    }

    @Test func takeUntilCompletesWhenTheTriggerFiresAndReleasesBoth() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), next(20, 2), next(40, 3), completed(50)])
        let trigger = HotTestStream(scheduler, [next(30, ()), completed(60, Void.self)])
        let events = run(scheduler) { source.stream.take(until: trigger.stream) }
        #expect(events == [.next(10, 1), .next(20, 2), .completed(30)])
        #expect(source.subscriptions == [SubscriptionLog(0, 30)])
        #expect(trigger.subscriptions == [SubscriptionLog(0, 30)])
    }

    @Test func disposingASubscriptionReleasesTheSourceAtThatTime() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), next(20, 2), next(30, 3)])
        let events = run(scheduler, subscribeAt: 5, disposeAt: 25) { source.stream.map { $0 } }
        #expect(events == [.next(10, 1), .next(20, 2)])
        #expect(source.subscriptions == [SubscriptionLog(5, 25)])
    }

    @Test func creationOperatorsEmitTheirFixedSequences() {
        let scheduler = VirtualTimeScheduler()
        #expect(run(scheduler) { EventStream.just(7) } == [.next(0, 7), .completed(0)])
        #expect(run(scheduler) { EventStream.from([1, 2]) } == [.next(0, 1), .next(0, 2), .completed(0)])
        #expect(run(scheduler) { EventStream<Int>.empty() } == [.completed(0)])
        #expect(run(scheduler) { EventStream<Int>.fail(TestError("x")) } == [.error(0, "x")])
        #expect(run(scheduler, disposeAt: 100) { EventStream<Int>.never() } == [])
        let timer = run(scheduler) { EventStream.timer(after: .milliseconds(50), on: scheduler).map { 1 } }
        #expect(timer == [.next(150, 1), .completed(150)])
    }

    @Test func deferredBuildsAFreshStreamPerSubscription() {
        let scheduler = VirtualTimeScheduler()
        var made = 0
        let stream = EventStream<Int>.deferred {
            made += 1
            return .just(made)
        }
        #expect(run(scheduler) { stream } == [.next(0, 1), .completed(0)])
        #expect(run(scheduler) { stream } == [.next(0, 2), .completed(0)])
    }
}
