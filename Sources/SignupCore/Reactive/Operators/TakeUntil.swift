extension EventStream {
    /// Mirrors this stream until `other` emits, then completes and releases the subscription.
    public func take<Trigger>(until other: EventStream<Trigger>) -> EventStream {
        EventStream { observer in
            let triggerSubscription = other.subscribe(Observer { event in
                switch event {
                case .next: observer.onCompleted()
                case .error(let error): observer.onError(error)
                case .completed: break
                }
            })
            let subscription = self.subscribe(observer)
            return Disposables.create(triggerSubscription, subscription)
        }
    }
}
