extension EventStream {
    /// Emits one element, then completes.
    public static func just(_ element: Element) -> EventStream {
        EventStream { observer in
            observer.onNext(element)
            observer.onCompleted()
            return Disposables.empty
        }
    }

    /// Fails at once with the error.
    public static func fail(_ error: any Error) -> EventStream {
        EventStream { observer in
            observer.onError(error)
            return Disposables.empty
        }
    }
}
