extension EventStream {
    /// Emits the elements of all sources as they arrive; completes when every source has completed,
    /// fails as soon as one fails. Sources are subscribed in order.
    public static func merge(_ sources: [EventStream]) -> EventStream {
        EventStream { observer in
            let group = CompositeDisposable()
            var running = sources.count
            if running == 0 {
                observer.onCompleted()
                return group
            }
            for source in sources {
                group.insert(source.subscribe(Observer { event in
                    switch event {
                    case .next, .error:
                        observer.on(event)
                    case .completed:
                        running -= 1
                        if running == 0 { observer.onCompleted() }
                    }
                }))
            }
            return group
        }
    }

    public static func merge(_ sources: EventStream...) -> EventStream {
        merge(sources)
    }
}
