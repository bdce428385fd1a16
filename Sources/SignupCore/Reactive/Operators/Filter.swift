extension EventStream {
    /// Passes on only the elements that satisfy the predicate.
    ///
    /// Stateless, so it hands its observer straight to the source, as `map` does.
    public func filter(_ isIncluded: @escaping (Element) -> Bool) -> EventStream {
        EventStream { observer in
            self.subscribeHandler(Observer { event in
                if case .next(let element) = event, !isIncluded(element) { return }
                observer.on(event)
            })
        }
    }
}
