import Dispatch
import Foundation
import SignupCore
import Synchronization

/// Which of a runner's workers blocking work waits for.
public enum WorkLane: Sendable {
    /// The store's questions and writes: short, and never queued behind a password's hash.
    case store
    /// Hashing or verifying a password (yescrypt, tens of milliseconds of one processor each),
    /// and the store write that follows it.
    case hashing
}

/// Runs blocking backend work (SQLite, password hashing) and delivers its result on the core's
/// scheduler as a one-element stream.
public protocol BlockingWorkRunner {
    func run<Value: Sendable>(on lane: WorkLane, _ work: @escaping @Sendable () -> Result<Value, BackendError>) -> EventStream<Value>
}

extension BlockingWorkRunner {
    /// Store work (`WorkLane.store`).
    public func run<Value: Sendable>(_ work: @escaping @Sendable () -> Result<Value, BackendError>) -> EventStream<Value> {
        run(on: .store, work)
    }
}

/// For virtual time: the work runs at subscription and its result is delivered at the same
/// virtual instant through the scheduler, so runs stay deterministic whatever the disk's speed.
public struct InlineWorkRunner: BlockingWorkRunner {
    private let scheduler: any Scheduler

    public init(scheduler: any Scheduler) {
        self.scheduler = scheduler
    }

    public func run<Value: Sendable>(on lane: WorkLane, _ work: @escaping @Sendable () -> Result<Value, BackendError>) -> EventStream<Value> {
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

/// For real time: the work runs on background threads, so the event loop keeps serving edits
/// while a password hashes; the result comes back on the loop. Disposal drops a late result.
/// Store work and hashing have workers of their own: however many registrations hash at once,
/// an availability question waits only for the store, and hashing keeps one processor free.
public final class BackgroundWorkRunner: BlockingWorkRunner, Sendable {
    private let loop: EventLoop
    private let store = DispatchQueue(label: "signup.backend-work", attributes: .concurrent)
    /// One serial queue a hashing worker: all processors but one (at least one worker).
    private let hashing: [DispatchQueue]
    private let nextHashingWorker = Atomic<Int>(0)

    public init(loop: EventLoop) {
        self.loop = loop
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
        hashing = (0..<workers).map { DispatchQueue(label: "signup.hashing.\($0)") }
    }

    public func run<Value: Sendable>(on lane: WorkLane, _ work: @escaping @Sendable () -> Result<Value, BackendError>) -> EventStream<Value> {
        EventStream { observer in
            let pending = PendingDelivery(observer)
            let handoff = UncheckedTransfer(pending)
            let loop = self.loop
            self.queue(for: lane).async {
                let result = work()
                loop.execute { handoff.value.deliver(result) }
            }
            return Disposables.create { pending.cancel() }
        }
    }

    private func queue(for lane: WorkLane) -> DispatchQueue {
        switch lane {
        case .store: return store
        case .hashing:
            let turn = nextHashingWorker.wrappingAdd(1, ordering: .relaxed).oldValue
            return hashing[Int(turn.magnitude % UInt(hashing.count))]
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
