/// A push-based stream of events: nothing happens until it is subscribed, and each
/// subscription runs the stream's work anew (use `share(replay:)` to run it once for many).
///
/// Named `EventStream` rather than `Observable` so it never clashes with the Observation module.
/// All subscriptions live on one serial executor; nothing here takes a lock.
public struct EventStream<Element> {
    @usableFromInline let subscribeHandler: (Observer<Element>) -> any Disposable

    /// Makes a stream from its subscribe function, which starts the work and returns how to stop it.
    @inlinable
    public init(_ subscribe: @escaping (Observer<Element>) -> any Disposable) {
        subscribeHandler = subscribe
    }

    /// Starts a subscription. The observer sees a well-formed sequence: nothing after a terminal
    /// event or after disposal, and a terminal event releases the subscription's resources.
    @inlinable @discardableResult
    public func subscribe(_ observer: Observer<Element>) -> any Disposable {
        let sink = SubscriptionSink(observer)
        let upstream = subscribeHandler(Observer { event in sink.on(event) })
        sink.attach(upstream)
        return sink
    }

    /// Starts a subscription with closures for each kind of event.
    @inlinable @discardableResult
    public func subscribe(
        onNext: @escaping (Element) -> Void = { _ in },
        onError: @escaping (any Error) -> Void = { _ in },
        onCompleted: @escaping () -> Void = {}
    ) -> any Disposable {
        subscribe(Observer { event in
            switch event {
            case .next(let element): onNext(element)
            case .error(let error): onError(error)
            case .completed: onCompleted()
            }
        })
    }
}

/// Enforces the event grammar for one subscription and releases upstream resources when it ends.
@usableFromInline
final class SubscriptionSink<Element>: Disposable {
    /// Nil once the subscription has stopped, by a terminal event or by disposal: letting go of
    /// the observer then breaks any cycle through a subscriber that holds its own subscription.
    @usableFromInline var observer: Observer<Element>?
    @usableFromInline var upstream: (any Disposable)?

    @inlinable
    init(_ observer: Observer<Element>) {
        self.observer = observer
    }

    @inlinable
    func on(_ event: Event<Element>) {
        guard let observer else { return }
        if event.isTerminal {
            self.observer = nil
            observer.on(event)
            releaseUpstream()
        } else {
            observer.on(event)
        }
    }

    @inlinable
    func attach(_ disposable: any Disposable) {
        if observer == nil {
            disposable.dispose()
        } else {
            upstream = disposable
        }
    }

    @inlinable
    func dispose() {
        observer = nil
        releaseUpstream()
    }

    @inlinable
    func releaseUpstream() {
        let disposable = upstream
        upstream = nil
        disposable?.dispose()
    }
}
