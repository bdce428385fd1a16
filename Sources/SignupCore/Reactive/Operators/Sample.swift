extension EventStream {
    /// At each tick of `sampler`, emits this stream's latest element if one arrived since the
    /// previous tick. After this stream completes, the next tick (or the sampler's completion)
    /// flushes what is pending and completes.
    public func sample<Tick>(_ sampler: EventStream<Tick>) -> EventStream {
        EventStream { observer in
            var pending: Element?
            var sourceDone = false
            let flush = {
                if let element = pending {
                    pending = nil
                    observer.onNext(element)
                }
            }
            let sourceSubscription = self.subscribe(Observer { event in
                switch event {
                case .next(let element): pending = element
                case .error(let error): observer.onError(error)
                case .completed: sourceDone = true
                }
            })
            let samplerSubscription = sampler.subscribe(Observer { event in
                switch event {
                case .next:
                    flush()
                    if sourceDone { observer.onCompleted() }
                case .error(let error):
                    observer.onError(error)
                case .completed:
                    flush()
                    observer.onCompleted()
                }
            })
            return Disposables.create(sourceSubscription, samplerSubscription)
        }
    }
}
