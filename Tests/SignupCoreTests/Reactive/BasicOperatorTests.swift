import Testing
@testable import SignupCore

/// The operators the product uses: `map` (backends' answers into outcomes), `just` and `fail`.
@Suite struct BasicOperatorTests {
    @Test func mapTransformsEachElement() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), next(20, 2), completed(30)])
        let events = run(scheduler) { source.stream.map { $0 * 10 } }
        #expect(events == [.next(10, 10), .next(20, 20), .completed(30)])
        #expect(source.subscriptions == [SubscriptionLog(0, 30)])
    }

    /// `map` keeps no sink of its own; the subscriber's still stops a source that breaks the
    /// grammar at its terminal event, and releases it then.
    @Test func statelessOperatorsStillEndAtTheSourcesTerminalEvent() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), completed(20), next(30, 2), next(40, 4), failed(50)])
        let events = run(scheduler) { source.stream.map { $0 * 2 }.map { $0 + 1 } }
        #expect(events == [.next(10, 3), .completed(20)])
        #expect(source.subscriptions == [SubscriptionLog(0, 20)])
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
        #expect(run(scheduler) { EventStream<Int>.fail(TestError("x")) } == [.error(0, "x")])
    }

}
