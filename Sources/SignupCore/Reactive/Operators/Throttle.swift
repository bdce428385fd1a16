extension EventStream {
    /// Emits the first element at once, then at most one element per `dueTime` window: with
    /// `latest`, the last element that arrived during the window is emitted when it closes (and
    /// opens the next window); without, elements inside a window are dropped. Completion waits for
    /// a pending latest element and follows it at once; an error drops it.
    public func throttle(_ dueTime: TimeSpan, latest: Bool = true, on scheduler: any Scheduler) -> EventStream {
        EventStream { observer in
            let window = SerialDisposable()
            var windowOpen = false
            var unsent: Element?
            var completionPending = false

            func openWindow() {
                windowOpen = true
                window.disposable = scheduler.schedule(after: dueTime) {
                    if let element = unsent {
                        unsent = nil
                        observer.onNext(element)
                        if completionPending { observer.onCompleted() } else { openWindow() }
                    } else {
                        windowOpen = false
                        if completionPending { observer.onCompleted() }
                    }
                }
            }

            let subscription = self.subscribe(Observer { event in
                switch event {
                case .next(let element):
                    if windowOpen {
                        if latest { unsent = element }
                    } else {
                        observer.onNext(element)
                        openWindow()
                    }
                case .error(let error):
                    unsent = nil
                    window.dispose()
                    observer.onError(error)
                case .completed:
                    if unsent == nil {
                        window.dispose()
                        observer.onCompleted()
                    } else {
                        completionPending = true
                    }
                }
            })
            return Disposables.create(subscription, window)
        }
    }
}
