import Dispatch

/// A scheduler on the wall clock (monotonic, milliseconds since the scheduler was made) that runs
/// every action on the event loop. Use it only from the loop. `now` is when the loop's current
/// work began, so everything one input or one answer causes carries one time.
public final class RealTimeScheduler: Scheduler {
    public let loop: EventLoop
    private let origin: UInt64

    public init(loop: EventLoop) {
        self.loop = loop
        // Made by work on the loop, it starts at that work's stamp, which the work's timers count from.
        origin = loop.isCurrent ? loop.currentStepStart : DispatchTime.now().uptimeNanoseconds
    }

    public var now: TimePoint {
        let start = loop.currentStepStart
        // Work that began before the scheduler was made (the one that made it) is at 0.
        return TimePoint(milliseconds: Int64((start > origin ? start - origin : 0) / 1_000_000))
    }

    @discardableResult
    public func schedule(after delay: TimeSpan, _ action: consuming @escaping () -> Void) -> any Disposable {
        let timer = loop.scheduleTransferring(after: delay, action)
        return Disposables.create { timer.cancel() }
    }

    public func preconditionOnExecutor() {
        loop.assertOnLoop()
    }
}
