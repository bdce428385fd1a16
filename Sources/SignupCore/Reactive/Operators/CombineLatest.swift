/// Shared bookkeeping of the combineLatest family: which sources have a value, which are done.
private final class CombineLatestState<Result> {
    private let observer: Observer<Result>
    private let combine: () -> Result
    private var hasValue: [Bool]
    private var isDone: [Bool]
    private var valueCount = 0
    private var doneCount = 0

    init(arity: Int, observer: Observer<Result>, combine: @escaping () -> Result) {
        self.observer = observer
        self.combine = combine
        hasValue = Array(repeating: false, count: arity)
        isDone = Array(repeating: false, count: arity)
    }

    /// An observer for source `slot` that stores each element through `store`.
    func observer<Value>(slot: Int, store: @escaping (Value) -> Void) -> Observer<Value> {
        Observer { event in
            switch event {
            case .next(let value):
                store(value)
                if !self.hasValue[slot] {
                    self.hasValue[slot] = true
                    self.valueCount += 1
                }
                if self.valueCount == self.hasValue.count {
                    self.observer.onNext(self.combine())
                }
            case .error(let error):
                self.observer.onError(error)
            case .completed:
                guard !self.isDone[slot] else { return }
                self.isDone[slot] = true
                self.doneCount += 1
                // A source that ends without a value means nothing can ever be combined.
                if self.doneCount == self.isDone.count || !self.hasValue[slot] {
                    self.observer.onCompleted()
                }
            }
        }
    }
}

extension EventStream {
    /// Once every source has emitted, emits the combination of their latest elements whenever any emits.
    public static func combineLatest<A, B>(
        _ a: EventStream<A>, _ b: EventStream<B>,
        _ combine: @escaping (A, B) -> Element
    ) -> EventStream {
        EventStream { observer in
            var lastA: A?
            var lastB: B?
            let state = CombineLatestState(arity: 2, observer: observer) { combine(lastA!, lastB!) }
            return Disposables.create(
                a.subscribe(state.observer(slot: 0) { lastA = $0 }),
                b.subscribe(state.observer(slot: 1) { lastB = $0 })
            )
        }
    }

    public static func combineLatest<A, B, C>(
        _ a: EventStream<A>, _ b: EventStream<B>, _ c: EventStream<C>,
        _ combine: @escaping (A, B, C) -> Element
    ) -> EventStream {
        EventStream { observer in
            var lastA: A?
            var lastB: B?
            var lastC: C?
            let state = CombineLatestState(arity: 3, observer: observer) { combine(lastA!, lastB!, lastC!) }
            return Disposables.create(
                a.subscribe(state.observer(slot: 0) { lastA = $0 }),
                b.subscribe(state.observer(slot: 1) { lastB = $0 }),
                c.subscribe(state.observer(slot: 2) { lastC = $0 })
            )
        }
    }

    /// The N-ary form: emits arrays of the latest element of each source, in source order.
    /// An empty list of sources completes at once.
    public static func combineLatest<Value>(_ sources: [EventStream<Value>]) -> EventStream
    where Element == [Value] {
        EventStream { observer in
            if sources.isEmpty {
                observer.onCompleted()
                return Disposables.empty
            }
            var latest = [Value?](repeating: nil, count: sources.count)
            let state = CombineLatestState(arity: sources.count, observer: observer) { latest.map { $0! } }
            let group = CompositeDisposable()
            for (slot, source) in sources.enumerated() {
                group.insert(source.subscribe(state.observer(slot: slot) { latest[slot] = $0 }))
            }
            return group
        }
    }
}
