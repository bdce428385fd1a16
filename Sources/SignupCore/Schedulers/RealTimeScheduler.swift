import Dispatch

/// A scheduler on the wall clock (monotonic, milliseconds since the scheduler was made) that runs
/// every action on the event loop. Use it only from the loop.
public final class RealTimeScheduler: Scheduler {
    public let loop: EventLoop
    private let origin: UInt64

    public init(loop: EventLoop) {
        self.loop = loop
        origin = DispatchTime.now().uptimeNanoseconds
    }

    public var now: TimePoint {
        TimePoint(milliseconds: Int64((DispatchTime.now().uptimeNanoseconds - origin) / 1_000_000))
    }

    @discardableResult
    public func schedule(after delay: TimeSpan, _ action: consuming @escaping () -> Void) -> any Disposable {
        let item = loop.scheduleTransferring(after: delay, action)
        return Disposables.create { item.cancel() }
    }

    public func preconditionOnExecutor() {
        loop.assertOnLoop()
    }
}
