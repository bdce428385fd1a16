extension EventStream {
    /// Maps each element to an inner stream and mirrors only the newest one: a new element disposes
    /// the previous inner subscription before subscribing the next, so a superseded inner stream's
    /// later events are never seen. Completes when this stream and the current inner one have.
    public func flatMapLatest<Result>(
        _ selector: @escaping (Element) -> EventStream<Result>
    ) -> EventStream<Result> {
        EventStream<Result> { observer in
            let inner = SerialDisposable()
            var generation = 0
            var innerRunning = false
            var outerDone = false
            let outer = self.subscribe(Observer { event in
                switch event {
                case .next(let element):
                    generation += 1
                    let current = generation
                    inner.disposable = nil
                    innerRunning = true
                    let subscription = selector(element).subscribe(Observer { innerEvent in
                        guard current == generation else { return }
                        switch innerEvent {
                        case .next, .error:
                            observer.on(innerEvent)
                        case .completed:
                            innerRunning = false
                            if outerDone { observer.onCompleted() }
                        }
                    })
                    if current == generation { inner.disposable = subscription } else { subscription.dispose() }
                case .error(let error):
                    observer.onError(error)
                case .completed:
                    outerDone = true
                    if !innerRunning { observer.onCompleted() }
                }
            })
            return Disposables.create(outer, inner)
        }
    }
}
