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
            let pending = PendingDelivery(observer)
            let handoff = UncheckedTransfer(pending)
            let loop = self.loop
            self.queue.async {
                let result = work()
                loop.execute { handoff.value.deliver(result) }
            }
            return Disposables.create { pending.cancel() }
        }
    }
}

/// The observer of one piece of work done elsewhere, reached only through the event loop: it
/// delivers the result once, or nothing after `cancel()`.
final class PendingDelivery<Value> {
    private var observer: Observer<Value>?

    init(_ observer: Observer<Value>) {
        self.observer = observer
    }

    func deliver(_ result: Result<Value, BackendError>) {
        guard let observer else { return }
        self.observer = nil
        InlineWorkRunner.deliver(result, to: observer)
    }

    func cancel() {
        observer = nil
    }
}
