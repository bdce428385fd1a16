import Testing
@testable import SignupCore

@Suite struct CombiningOperatorTests {
    @Test func mergeInterleavesAndCompletesAfterTheLastSource() {
        let scheduler = VirtualTimeScheduler()
        let a = HotTestStream(scheduler, [next(10, "a1"), next(30, "a2"), completed(40)])
        let b = HotTestStream(scheduler, [next(20, "b1"), next(30, "b2"), completed(50)])
        let events = run(scheduler) { EventStream.merge(a.stream, b.stream) }
        #expect(events == [.next(10, "a1"), .next(20, "b1"), .next(30, "a2"), .next(30, "b2"), .completed(50)])
        #expect(a.subscriptions == [SubscriptionLog(0, 40)])
        #expect(b.subscriptions == [SubscriptionLog(0, 50)])
    }

    @Test func mergeFailsAtTheFirstErrorAndReleasesEverySource() {
        let scheduler = VirtualTimeScheduler()
        let a = HotTestStream(scheduler, [next(10, 1), failed(20)])
        let b = HotTestStream(scheduler, [next(15, 2), next(30, 3)])
        let events = run(scheduler) { EventStream.merge([a.stream, b.stream]) }
        #expect(events == [.next(10, 1), .next(15, 2), .error(20, "boom")])
        #expect(b.subscriptions == [SubscriptionLog(0, 20)])
        #expect(run(scheduler) { EventStream<Int>.merge([]) } == [.completed(30)])
    }

    @Test func combineLatestOfTwoWaitsForBothThenEmitsOnEither() {
        let scheduler = VirtualTimeScheduler()
        let a = HotTestStream(scheduler, [next(10, 1), next(20, 2), next(40, 3), completed(50)])
        let b = HotTestStream(scheduler, [next(30, "x"), next(45, "y"), completed(60)])
        let events = run(scheduler) { EventStream.combineLatest(a.stream, b.stream) { "\($0)\($1)" } }
        #expect(events == [.next(30, "2x"), .next(40, "3x"), .next(45, "3y"), .completed(60)])
        #expect(a.subscriptions == [SubscriptionLog(0, 50)])
        #expect(b.subscriptions == [SubscriptionLog(0, 60)])
    }

    @Test func combineLatestOfThreeCombinesTheLatestOfEach() {
        let scheduler = VirtualTimeScheduler()
        let a = HotTestStream(scheduler, [next(10, 1), next(40, 4)])
        let b = HotTestStream(scheduler, [next(20, 2)])
        let c = HotTestStream(scheduler, [next(30, 3), next(50, 5), completed(60)])
        let events = run(scheduler, disposeAt: 100) {
            EventStream.combineLatest(a.stream, b.stream, c.stream) { $0 * 100 + $1 * 10 + $2 }
        }
        #expect(events == [.next(30, 123), .next(40, 423), .next(50, 425)])
        #expect(c.subscriptions == [SubscriptionLog(0, 60)])
        #expect(a.subscriptions == [SubscriptionLog(0, 100)])
    }

    @Test func combineLatestOfManyEmitsArraysInSourceOrder() {
        let scheduler = VirtualTimeScheduler()
        let sources = (0..<4).map { index in
            HotTestStream(scheduler, [next(Int64(10 * (index + 1)), index), completed(100)])
        }
        let events = run(scheduler) { EventStream.combineLatest(sources.map(\.stream)) }
        #expect(events == [.next(40, [0, 1, 2, 3]), .completed(100)])
        #expect(run(scheduler) { EventStream<[Int]>.combineLatest([EventStream<Int>]()) } == [.completed(100)])
    }

    @Test func combineLatestCompletesAtOnceWhenASourceEndsWithoutAValue() {
        let scheduler = VirtualTimeScheduler()
        let a = HotTestStream(scheduler, [next(10, 1)])
        let b = HotTestStream(scheduler, [completed(20, Int.self)])
        let events = run(scheduler) { EventStream.combineLatest(a.stream, b.stream) { $0 + $1 } }
        #expect(events == [.completed(20)])
        #expect(a.subscriptions == [SubscriptionLog(0, 20)])
    }

    @Test func withLatestFromPairsSourceElementsWithTheOthersLatest() {
        let scheduler = VirtualTimeScheduler()
        let taps = HotTestStream(scheduler, [next(10, "t1"), next(30, "t2"), next(50, "t3"), completed(60)])
        let values = HotTestStream(scheduler, [next(20, 1), next(40, 2), next(45, 3), completed(55)])
        let events = run(scheduler) { taps.stream.withLatestFrom(values.stream) { "\($0):\($1)" } }
        #expect(events == [.next(30, "t2:1"), .next(50, "t3:3"), .completed(60)])
        #expect(values.subscriptions == [SubscriptionLog(0, 55)])
    }

    @Test func sampleEmitsTheLatestElementOnlyIfNewSinceTheLastTick() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1), next(20, 2), next(50, 3), completed(70)])
        let ticks = HotTestStream(scheduler, [next(30, ()), next(40, ()), next(60, ()), next(80, ())])
        let events = run(scheduler) { source.stream.sample(ticks.stream) }
        #expect(events == [.next(30, 2), .next(60, 3), .completed(80)])
        #expect(ticks.subscriptions == [SubscriptionLog(0, 80)])
    }

    @Test func sampleFlushesOnTheSamplersCompletion() {
        let scheduler = VirtualTimeScheduler()
        let source = HotTestStream(scheduler, [next(10, 1)])
        let ticks = HotTestStream(scheduler, [completed(20, Void.self)])
        let events = run(scheduler) { source.stream.sample(ticks.stream) }
        #expect(events == [.next(20, 1), .completed(20)])
        #expect(source.subscriptions == [SubscriptionLog(0, 20)])
    }
}
