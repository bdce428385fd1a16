extension EventStream {
    /// Runs one subscription to this stream for all subscribers while at least one remains, and
    /// replays the latest `replay` elements to each newcomer. When the last subscriber leaves, the
    /// source subscription is disposed and the replay buffer cleared; the next subscriber reconnects.
    public func share(replay: Int = 0) -> EventStream {
        let connection = SharedConnection(source: self, replay: replay)
        return EventStream { observer in connection.subscribe(observer) }
    }
}

/// The single upstream subscription behind a shared stream, counted by its subscribers.
private final class SharedConnection<Element> {
    private let source: EventStream<Element>
    private let replayCount: Int
    private var observers = ObserverList<Element>()
    private var buffer: [Element] = []
    private var upstream: (any Disposable)?
    private var isConnected = false

    init(source: EventStream<Element>, replay: Int) {
        self.source = source
        replayCount = max(0, replay)
    }

    func subscribe(_ observer: Observer<Element>) -> any Disposable {
        let key = observers.append(observer)
        for element in buffer { observer.onNext(element) }
        if !isConnected {
            isConnected = true
            let subscription = source.subscribe(Observer { [weak self] event in self?.forward(event) })
            if isConnected { upstream = subscription } else { subscription.dispose() }
        }
        return Disposables.create { self.leave(key) }
    }

    private func forward(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if replayCount > 0 {
                buffer.append(element)
                if buffer.count > replayCount { buffer.removeFirst(buffer.count - replayCount) }
            }
            observers.forEach { $0.on(event) }
        case .error, .completed:
            let finished = observers
            reset()
            finished.forEach { $0.on(event) }
        }
    }

    private func leave(_ key: Int) {
        observers.remove(key)
        if observers.isEmpty { reset() }
    }

    private func reset() {
        observers.removeAll()
        buffer.removeAll()
        isConnected = false
        let subscription = upstream
        upstream = nil
        subscription?.dispose()
    }
}
