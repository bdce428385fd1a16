extension EventStream {
    /// Emits the given elements first, synchronously on subscription, then the source's.
    public func startWith(_ elements: Element...) -> EventStream {
        EventStream { observer in
            for element in elements { observer.onNext(element) }
            return self.subscribe(observer)
        }
    }
}
