import Dispatch

/// Runs blocking backend work (SQLite, password hashing) and delivers its result on the core's
/// scheduler as a one-element stream.
public protocol BlockingWorkRunner {
    func run<Value: Sendable>(_ work: @escaping @Sendable () -> Result<Value, BackendError>) -> EventStream<Value>
}

/// For virtual time: the work runs at subscription and its result is delivered at the same
/// virtual instant through the scheduler, so runs stay deterministic whatever the disk's speed.
public struct InlineWorkRunner: BlockingWorkRunner {
    private let scheduler: any Scheduler

    public init(scheduler: any Scheduler) {
        self.scheduler = scheduler
    }

    public func run<Value: Sendable>(_ work: @escaping @Sendable () -> Result<Value, BackendError>) -> EventStream<Value> {
        let scheduler = self.scheduler
        return EventStream { observer in
            let result = work()
            return scheduler.schedule(after: .zero) { Self.deliver(result, to: observer) }
        }
    }

    static func deliver<Value>(_ result: Result<Value, BackendError>, to observer: Observer<Value>) {
        switch result {
        case .success(let value):
            observer.onNext(value)
            observer.onCompleted()
        case .failure(let error):
            observer.onError(error)
        }
    }
}

/// For real time: the work runs on a background queue, so the event loop keeps serving edits
/// while a password hashes; the result comes back on the loop. Disposal drops a late result.
public final class BackgroundWorkRunner: BlockingWorkRunner, Sendable {
    private let loop: EventLoop
    private let queue = DispatchQueue(label: "signup.backend-work", attributes: .concurrent)

    public init(loop: EventLoop) {
        self.loop = loop
    }

    public func run<Value: Sendable>(_ work: @escaping @Sendable () -> Result<Value, BackendError>) -> EventStream<Value> {
        EventStream { observer in
            let cancellation = ActionDisposable {}
            let delivery = UncheckedTransfer((observer, cancellation))
            let loop = self.loop
            self.queue.async {
                let result = work()
                loop.execute {
                    let (observer, cancellation) = delivery.value
                    guard !cancellation.isDisposed else { return }
                    InlineWorkRunner.deliver(result, to: observer)
                }
            }
            return cancellation
        }
    }
}
