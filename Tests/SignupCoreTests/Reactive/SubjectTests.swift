import Testing
@testable import SignupCore

@Suite struct SubjectTests {
    @Test func publishSubjectDeliversOnlyWhatFollowsASubscriptionInSubscriptionOrder() {
        let scheduler = VirtualTimeScheduler()
        let subject = PublishSubject<Int>()
        var log: [String] = []
        subject.onNext(0)
        let first = subject.stream.subscribe(onNext: { log.append("first \($0)") })
        subject.stream.subscribe(onNext: { log.append("second \($0)") }, onCompleted: { log.append("second done") })
        subject.onNext(1)
        first.dispose()
        subject.onNext(2)
        subject.onCompleted()
        subject.onNext(3)
        let late = Recorder<Int>(scheduler: scheduler)
        subject.stream.subscribe(late.observer)
        #expect(log == ["first 1", "second 1", "second 2", "second done"])
        #expect(late.events == [.completed(0)])
        #expect(!subject.hasObservers)
    }

    @Test func aSubscriptionSeesNothingAfterItsTerminalEvent() {
        let scheduler = VirtualTimeScheduler()
        let recorder = Recorder<Int>(scheduler: scheduler)
        var released = false
        EventStream<Int> { observer in
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
            observer.onError(TestError())
            return Disposables.create { released = true }
        }.subscribe(recorder.observer)
        #expect(recorder.events == [.next(0, 1), .completed(0)])
        #expect(released)
    }
}
