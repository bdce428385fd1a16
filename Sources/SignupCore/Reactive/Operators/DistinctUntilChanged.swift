extension EventStream {
    /// Drops an element when `isEquivalent` says it matches the previous one passed on.
    public func distinctUntilChanged(
        by isEquivalent: @escaping (Element, Element) -> Bool
    ) -> EventStream {
        EventStream { observer in
            var previous: Element?
            return self.subscribe(Observer { event in
                if case .next(let element) = event {
                    if let previous, isEquivalent(previous, element) { return }
                    previous = element
                }
                observer.on(event)
            })
        }
    }

    /// Drops an element whose key equals the previous passed-on element's key.
    public func distinctUntilChanged<Key: Equatable>(
        key: @escaping (Element) -> Key
    ) -> EventStream {
        distinctUntilChanged { key($0) == key($1) }
    }
}

extension EventStream where Element: Equatable {
    /// Drops an element equal to the previous one passed on.
    public func distinctUntilChanged() -> EventStream {
        distinctUntilChanged(by: ==)
    }
}
