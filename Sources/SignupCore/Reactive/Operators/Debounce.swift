extension EventStream {
    /// Emits an element only after `dueTime` has passed without another one; each element restarts
    /// the wait. On completion a pending element is emitted at once; an error drops it.
    public func debounce(_ dueTime: TimeSpan, on scheduler: any Scheduler) -> EventStream {
        EventStream { observer in
            let timer = SerialDisposable()
            var pending: Element?
            var generation = 0
            let subscription = self.subscribe(Observer { event in
                switch event {
                case .next(let element):
                    generation += 1
                    let current = generation
                    pending = element
                    timer.disposable = scheduler.schedule(after: dueTime) {
                        guard current == generation, let element = pending else { return }
                        pending = nil
                        observer.onNext(element)
                    }
                case .error(let error):
                    pending = nil
                    timer.dispose()
                    observer.onError(error)
                case .completed:
                    timer.dispose()
                    if let element = pending {
                        pending = nil
                        observer.onNext(element)
                    }
                    observer.onCompleted()
                }
            })
            return Disposables.create(subscription, timer)
        }
    }
}
