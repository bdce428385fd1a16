extension EventStream {
    /// Maps an element to an inner stream only while no inner stream is running; elements that
    /// arrive meanwhile are ignored. The running one is never cut short by a newer element.
    /// Completes when this stream and the running inner one have.
    public func flatMapFirst<Result>(
        _ selector: @escaping (Element) -> EventStream<Result>
    ) -> EventStream<Result> {
        EventStream<Result> { observer in
            let inner = SerialDisposable()
            var innerRunning = false
            var outerDone = false
            let outer = self.subscribe(Observer { event in
                switch event {
                case .next(let element):
                    guard !innerRunning else { return }
                    innerRunning = true
                    let subscription = selector(element).subscribe(Observer { innerEvent in
                        switch innerEvent {
                        case .next, .error:
                            observer.on(innerEvent)
                        case .completed:
                            innerRunning = false
                            if outerDone { observer.onCompleted() }
                        }
                    })
                    if innerRunning { inner.disposable = subscription }
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
