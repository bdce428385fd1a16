extension EventStream {
    /// Emits each intermediate result of folding the elements into an accumulator, starting from `seed`.
    public func scan<State>(
        _ seed: State,
        _ accumulate: @escaping (State, Element) -> State
    ) -> EventStream<State> {
        EventStream<State> { observer in
            var state = seed
            return self.subscribe(Observer { event in
                switch event {
                case .next(let element):
                    state = accumulate(state, element)
                    observer.onNext(state)
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            })
        }
    }
}
