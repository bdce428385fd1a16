extension EventStream {
    /// Drops the first `count` elements.
    public func skip(_ count: Int) -> EventStream {
        EventStream { observer in
            var remaining = count
            return self.subscribe(Observer { event in
                if case .next = event, remaining > 0 {
                    remaining -= 1
                    return
                }
                observer.on(event)
            })
        }
    }
}
