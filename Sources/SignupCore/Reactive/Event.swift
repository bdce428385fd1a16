/// One notification of a stream: an element, or the terminal error or completion.
///
/// Streams obey the grammar `next* (error | completed)?`: nothing follows a terminal event.
public enum Event<Element> {
    case next(Element)
    case error(any Error)
    case completed

    /// True for `error` and `completed`, after which a stream says nothing more.
    @inlinable
    public var isTerminal: Bool {
        if case .next = self { return false }
        return true
    }

    /// The element carried by a `next` event.
    public var element: Element? {
        if case .next(let element) = self { return element }
        return nil
    }

    /// The same event with its element transformed; terminal events pass unchanged.
    public func map<Result>(_ transform: (Element) -> Result) -> Event<Result> {
        switch self {
        case .next(let element): return .next(transform(element))
        case .error(let error): return .error(error)
        case .completed: return .completed
        }
    }
}
