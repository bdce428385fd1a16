/// Receives the events of one subscription.
public struct Observer<Element> {
    private let handler: (Event<Element>) -> Void

    public init(_ handler: @escaping (Event<Element>) -> Void) {
        self.handler = handler
    }

    public func on(_ event: Event<Element>) {
        handler(event)
    }

    public func onNext(_ element: Element) {
        handler(.next(element))
    }

    public func onError(_ error: any Error) {
        handler(.error(error))
    }

    public func onCompleted() {
        handler(.completed)
    }
}
