extension EventStream {
    /// Passes on only the elements that satisfy the predicate.
    public func filter(_ isIncluded: @escaping (Element) -> Bool) -> EventStream {
        EventStream { observer in
            self.subscribe(Observer { event in
                if case .next(let element) = event, !isIncluded(element) { return }
                observer.on(event)
            })
        }
    }
}
