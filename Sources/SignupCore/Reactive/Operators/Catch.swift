extension EventStream {
    /// On error, continues with the stream the handler returns for it.
    public func `catch`(_ handler: @escaping (any Error) -> EventStream) -> EventStream {
        EventStream { observer in
            let fallback = SerialDisposable()
            let subscription = self.subscribe(Observer { event in
                if case .error(let error) = event {
                    fallback.disposable = handler(error).subscribe(observer)
                } else {
                    observer.on(event)
                }
            })
            return Disposables.create(subscription, fallback)
        }
    }

    /// On error, emits `element` and completes.
    public func catchAndReturn(_ element: Element) -> EventStream {
        self.catch { _ in .just(element) }
    }
}
