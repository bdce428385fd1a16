import SignupCore

/// Records every event a stream delivers, with the virtual time it arrived.
final class Recorder<Value: Equatable> {
    private(set) var events: [Recorded<Value>] = []
    private let scheduler: VirtualTimeScheduler

    init(scheduler: VirtualTimeScheduler) {
        self.scheduler = scheduler
    }

    var observer: Observer<Value> {
        Observer { [self] event in events.append(Recorded(event, at: scheduler.now.milliseconds)) }
    }

    var values: [Value] {
        events.compactMap { if case .next(_, let value) = $0 { return value } else { return nil } }
    }
}

/// A hot test stream: its events happen at fixed absolute times whether or not anyone listens.
final class HotTestStream<Value> {
    private let subject = PublishSubject<Value>()
    private let scheduler: VirtualTimeScheduler
    private(set) var subscriptions: [SubscriptionLog] = []

    init(_ scheduler: VirtualTimeScheduler, _ events: [(Int64, Event<Value>)]) {
        self.scheduler = scheduler
        for (time, event) in events {
            scheduler.schedule(after: .milliseconds(time - scheduler.now.milliseconds)) { [subject] in subject.on(event) }
        }
    }

    var stream: EventStream<Value> {
        EventStream { observer in
            let index = self.subscriptions.count
            self.subscriptions.append(SubscriptionLog(self.scheduler.now.milliseconds))
            let subscription = self.subject.stream.subscribe(observer)
            return Disposables.create {
                subscription.dispose()
                self.subscriptions[index].disposed = self.scheduler.now.milliseconds
            }
        }
    }
}

/// A cold test stream: every subscription replays the events at times relative to its start.
final class ColdTestStream<Value> {
    private let scheduler: VirtualTimeScheduler
    private let events: [(Int64, Event<Value>)]
    private(set) var subscriptions: [SubscriptionLog] = []

    init(_ scheduler: VirtualTimeScheduler, _ events: [(Int64, Event<Value>)]) {
        self.scheduler = scheduler
        self.events = events
    }

    var stream: EventStream<Value> {
        EventStream { observer in
            let index = self.subscriptions.count
            self.subscriptions.append(SubscriptionLog(self.scheduler.now.milliseconds))
            let timers = CompositeDisposable()
            for (offset, event) in self.events {
                timers.insert(self.scheduler.schedule(after: .milliseconds(offset)) { observer.on(event) })
            }
            return Disposables.create {
                timers.dispose()
                self.subscriptions[index].disposed = self.scheduler.now.milliseconds
            }
        }
    }
}

/// Subscribes at `subscribeAt`, disposes at `disposeAt` (if given), runs the scheduler to idle,
/// and returns what was recorded.
func run<Value: Equatable>(
    _ scheduler: VirtualTimeScheduler,
    subscribeAt: Int64 = 0,
    disposeAt: Int64? = nil,
    _ makeStream: @escaping () -> EventStream<Value>
) -> [Recorded<Value>] {
    let recorder = Recorder<Value>(scheduler: scheduler)
    let subscription = SerialDisposable()
    scheduler.schedule(after: .milliseconds(subscribeAt - scheduler.now.milliseconds)) {
        subscription.disposable = makeStream().subscribe(recorder.observer)
    }
    if let disposeAt {
        scheduler.schedule(after: .milliseconds(disposeAt - scheduler.now.milliseconds)) { subscription.dispose() }
    }
    scheduler.run()
    return recorder.events
}

func next<Value>(_ time: Int64, _ value: Value) -> (Int64, Event<Value>) { (time, .next(value)) }
func completed<Value>(_ time: Int64, _: Value.Type = Value.self) -> (Int64, Event<Value>) { (time, .completed) }
func failed<Value>(_ time: Int64, _ error: any Error = TestError(), _: Value.Type = Value.self) -> (Int64, Event<Value>) {
    (time, .error(error))
}
