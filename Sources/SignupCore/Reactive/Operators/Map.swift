extension EventStream {
    /// Transforms each element.
    ///
    /// Stateless, so it hands its observer straight to the source rather than subscribing: the
    /// subscriber's own sink downstream already enforces the event grammar and releases the
    /// source, and a second sink here would cost every event a stream hop and two objects.
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> EventStream<Result> {
        EventStream<Result> { observer in
            self.subscribeHandler(Observer { event in observer.on(event.map(transform)) })
        }
    }
}
