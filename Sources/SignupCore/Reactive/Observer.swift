/// Receives the events of one subscription.
///
/// Its methods are inlinable, as are `EventStream`'s subscribing ones, so a subscriber in another
/// module runs them specialised for its element type rather than through generic metadata.
public struct Observer<Element> {
    @usableFromInline let handler: (Event<Element>) -> Void

    @inlinable
    public init(_ handler: @escaping (Event<Element>) -> Void) {
        self.handler = handler
    }

    @inlinable
    public func on(_ event: Event<Element>) {
        handler(event)
    }

    @inlinable
    public func onNext(_ element: Element) {
        handler(.next(element))
    }

    @inlinable
    public func onError(_ error: any Error) {
        handler(.error(error))
    }

    @inlinable
    public func onCompleted() {
        handler(.completed)
    }
}
