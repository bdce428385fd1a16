extension EventStream {
    /// Emits one element, then completes.
    public static func just(_ element: Element) -> EventStream {
        EventStream { observer in
            observer.onNext(element)
            observer.onCompleted()
            return Disposables.empty
        }
    }

    /// Emits the elements of a sequence in order, then completes.
    public static func from<S: Sequence>(_ elements: S) -> EventStream where S.Element == Element {
        EventStream { observer in
            for element in elements { observer.onNext(element) }
            observer.onCompleted()
            return Disposables.empty
        }
    }

    /// Completes at once without an element.
    public static func empty() -> EventStream {
        EventStream { observer in
            observer.onCompleted()
            return Disposables.empty
        }
    }

    /// Never emits and never ends.
    public static func never() -> EventStream {
        EventStream { _ in Disposables.empty }
    }

    /// Fails at once with the error.
    public static func fail(_ error: any Error) -> EventStream {
        EventStream { observer in
            observer.onError(error)
            return Disposables.empty
        }
    }

    /// Builds a fresh stream for every subscription.
    public static func deferred(_ factory: @escaping () -> EventStream) -> EventStream {
        EventStream { observer in factory().subscribe(observer) }
    }
}

extension EventStream where Element == Void {
    /// Emits once after the delay, then completes.
    public static func timer(after delay: TimeSpan, on scheduler: any Scheduler) -> EventStream {
        EventStream { observer in
            scheduler.schedule(after: delay) {
                observer.onNext(())
                observer.onCompleted()
            }
        }
    }
}
