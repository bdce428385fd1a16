/// A hot stream that forwards what it is told to every current subscriber, in subscription order.
///
/// A subscriber that arrives after the terminal event receives that event at once.
public final class PublishSubject<Element> {
    private var observers = ObserverList<Element>()
    private var terminalEvent: Event<Element>?

    public init() {}

    public var hasObservers: Bool { !observers.isEmpty }

    public func on(_ event: Event<Element>) {
        guard terminalEvent == nil else { return }
        if event.isTerminal {
            terminalEvent = event
            let finished = observers
            observers.removeAll()
            finished.forEach { $0.on(event) }
        } else {
            observers.forEach { $0.on(event) }
        }
    }

    public func onNext(_ element: Element) { on(.next(element)) }
    public func onError(_ error: any Error) { on(.error(error)) }
    public func onCompleted() { on(.completed) }

    public var stream: EventStream<Element> {
        EventStream { observer in
            if let terminalEvent = self.terminalEvent {
                observer.on(terminalEvent)
                return Disposables.empty
            }
            let key = self.observers.append(observer)
            return Disposables.create { self.observers.remove(key) }
        }
    }
}
