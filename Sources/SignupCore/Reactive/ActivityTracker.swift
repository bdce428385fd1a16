/// Counts the streams it tracks that are running, like RxExample's ActivityIndicator.
///
/// A tracked subscription counts from subscribe until it is disposed, which every completion and
/// error does too, so an activity can never stay "on" after its work has ended.
public final class ActivityTracker {
    private let subject = BehaviorSubject(0)

    public init() {}

    /// How many tracked subscriptions are running now.
    public var count: Int { subject.value }

    /// Whether anything is running, emitted when that changes (current value first).
    public var isActive: EventStream<Bool> {
        subject.stream.map { $0 > 0 }.distinctUntilChanged()
    }

    /// The source, counted while each subscription to it runs.
    public func track<Element>(_ source: EventStream<Element>) -> EventStream<Element> {
        EventStream { observer in
            self.subject.onNext(self.subject.value + 1)
            let subscription = source.subscribe(observer)
            return Disposables.create {
                subscription.dispose()
                self.subject.onNext(self.subject.value - 1)
            }
        }
    }
}

extension EventStream {
    /// This stream, counted by `tracker` while a subscription to it runs.
    public func trackActivity(_ tracker: ActivityTracker) -> EventStream {
        tracker.track(self)
    }
}
