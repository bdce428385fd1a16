extension EventStream {
    /// Transforms each element.
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> EventStream<Result> {
        EventStream<Result> { observer in
            self.subscribe(Observer { event in observer.on(event.map(transform)) })
        }
    }
}
