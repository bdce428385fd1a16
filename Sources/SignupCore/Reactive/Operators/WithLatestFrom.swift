extension EventStream {
    /// When this stream emits, combines its element with the latest element of `other`; elements that
    /// arrive before `other` has emitted are dropped. Completes with this stream.
    public func withLatestFrom<Other, Result>(
        _ other: EventStream<Other>,
        _ combine: @escaping (Element, Other) -> Result
    ) -> EventStream<Result> {
        EventStream<Result> { observer in
            var latest: Other?
            let otherSubscription = other.subscribe(Observer { event in
                switch event {
                case .next(let value): latest = value
                case .error(let error): observer.onError(error)
                case .completed: break
                }
            })
            let sourceSubscription = self.subscribe(Observer { event in
                switch event {
                case .next(let element):
                    if let latest { observer.onNext(combine(element, latest)) }
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            })
            return Disposables.create(otherSubscription, sourceSubscription)
        }
    }

    /// When this stream emits, emits the latest element of `other`.
    public func withLatestFrom<Other>(_ other: EventStream<Other>) -> EventStream<Other> {
        withLatestFrom(other) { _, latest in latest }
    }
}
