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

}
