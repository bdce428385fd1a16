extension EventStream {
    /// Shifts every element and the completion later by `dueTime`, keeping their order.
    /// An error is passed on at once and cancels whatever is still waiting.
    public func delay(_ dueTime: TimeSpan, on scheduler: any Scheduler) -> EventStream {
        EventStream { observer in
            let timers = CompositeDisposable()
            let subscription = self.subscribe(Observer { event in
                if case .error = event {
                    timers.dispose()
                    observer.on(event)
                    return
                }
                var key: CompositeDisposable.Key?
                var fired = false
                let timer = scheduler.schedule(after: dueTime) {
                    fired = true
                    if let key { timers.forget(key) }
                    observer.on(event)
                }
                if !fired { key = timers.insert(timer) }
            })
            return Disposables.create(subscription, timers)
        }
    }
}
