/// A hot stream that holds a current value: each new subscriber receives it first, then what follows.
public final class BehaviorSubject<Element> {
    private var observers = ObserverList<Element>()
    private var terminalEvent: Event<Element>?
    public private(set) var value: Element

    public init(_ value: Element) {
        self.value = value
    }

    public func on(_ event: Event<Element>) {
        guard terminalEvent == nil else { return }
        switch event {
        case .next(let element):
            value = element
            observers.forEach { $0.on(event) }
        case .error, .completed:
            terminalEvent = event
            let finished = observers
            observers.removeAll()
            finished.forEach { $0.on(event) }
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
            observer.onNext(self.value)
            return Disposables.create { self.observers.remove(key) }
        }
    }
}
