import Testing
@testable import SignupCore

@Suite struct FlatteningOperatorTests {
    /// Each outer element `n` maps to a cold inner stream emitting "n.1" after 5 ms and "n.2" after 15 ms.
    private func inners(_ scheduler: VirtualTimeScheduler, count: Int) -> [ColdTestStream<String>] {
        (0..<count).map { n in
            ColdTestStream(scheduler, [next(5, "\(n).1"), next(15, "\(n).2"), completed(20)])
        }
    }

    @Test func flatMapLatestMirrorsOnlyTheNewestInnerAndReleasesTheOldOne() {
        let scheduler = VirtualTimeScheduler()
        let inner = inners(scheduler, count: 3)
        let outer = HotTestStream(scheduler, [next(10, 0), next(20, 1), next(50, 2), completed(60)])
        let events = run(scheduler) { outer.stream.flatMapLatest { inner[$0].stream } }
        #expect(events == [
            .next(15, "0.1"),
            .next(25, "1.1"), .next(35, "1.2"),
            .next(55, "2.1"), .next(65, "2.2"), .completed(70),
        ])
        #expect(inner[0].subscriptions == [SubscriptionLog(10, 20)])
        #expect(inner[1].subscriptions == [SubscriptionLog(20, 40)])
        #expect(inner[2].subscriptions == [SubscriptionLog(50, 70)])
        #expect(outer.subscriptions == [SubscriptionLog(0, 60)])
    }

    @Test func flatMapLatestDisposesTheRunningInnerWhenDisposed() {
        let scheduler = VirtualTimeScheduler()
        let inner = inners(scheduler, count: 1)
        let outer = HotTestStream(scheduler, [next(10, 0)])
        let events = run(scheduler, disposeAt: 18) { outer.stream.flatMapLatest { inner[$0].stream } }
        #expect(events == [.next(15, "0.1")])
        #expect(inner[0].subscriptions == [SubscriptionLog(10, 18)])
        #expect(outer.subscriptions == [SubscriptionLog(0, 18)])
    }

    @Test func flatMapLatestPassesInnerErrorsAndStops() {
        let scheduler = VirtualTimeScheduler()
        let failing = ColdTestStream(scheduler, [next(5, "a"), failed(10, TestError("inner"), String.self)])
        let outer = HotTestStream(scheduler, [next(10, 0), next(30, 1)])
        let events = run(scheduler) { outer.stream.flatMapLatest { _ in failing.stream } }
        #expect(events == [.next(15, "a"), .error(20, "inner")])
        #expect(outer.subscriptions == [SubscriptionLog(0, 20)])
        #expect(failing.subscriptions == [SubscriptionLog(10, 20)])
    }

    @Test func flatMapFirstIgnoresElementsWhileAnInnerRuns() {
        let scheduler = VirtualTimeScheduler()
        let inner = inners(scheduler, count: 4)
        let outer = HotTestStream(scheduler, [next(10, 0), next(20, 1), next(40, 2), next(45, 3), completed(50)])
        let events = run(scheduler) { outer.stream.flatMapFirst { inner[$0].stream } }
        #expect(events == [
            .next(15, "0.1"), .next(25, "0.2"),
            .next(45, "2.1"), .next(55, "2.2"), .completed(60),
        ])
        #expect(inner[0].subscriptions == [SubscriptionLog(10, 30)])
        #expect(inner[1].subscriptions == [])
        #expect(inner[2].subscriptions == [SubscriptionLog(40, 60)])
        #expect(inner[3].subscriptions == [])
    }

    @Test func flatMapFirstAcceptsTheNextElementOnceTheInnerCompleted() {
        let scheduler = VirtualTimeScheduler()
        let outer = HotTestStream(scheduler, [next(10, 1), next(10, 2), next(11, 3), completed(12)])
        let events = run(scheduler) {
            outer.stream.flatMapFirst { EventStream.just($0 * 10) }
        }
        #expect(events == [.next(10, 10), .next(10, 20), .next(11, 30), .completed(12)])
    }
}
