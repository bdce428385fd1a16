/// A scheduler whose clock moves only when told to: the heart of deterministic tests and of
/// `--clock virtual`. Work runs by due time, then first-in first-out; it is synchronous and
/// single-threaded, so the same calls always give the same interleaving.
public final class VirtualTimeScheduler: Scheduler {
    public private(set) var now: TimePoint
    private var queue = TimerQueue()
    private var nextSequence: UInt64 = 0

    public init(now: TimePoint = .origin) {
        self.now = now
    }

    /// Number of actions scheduled and not yet run or cancelled.
    public var pendingCount: Int { queue.liveCount }

    /// The due time of the earliest pending action.
    public var nextDueTime: TimePoint? { queue.peekLive()?.dueTime }

    @discardableResult
    public func schedule(after delay: TimeSpan, _ action: @escaping () -> Void) -> any Disposable {
        let dueTime = now + max(delay, .zero)
        let timer = ScheduledTimer(dueTime: dueTime, sequence: nextSequence, action: action)
        nextSequence += 1
        queue.insert(timer)
        return TimerCancellation(timer: timer, queue: self)
    }

    /// Runs everything due up to `now + span`, then leaves the clock there.
    public func advance(by span: TimeSpan) {
        precondition(span >= .zero, "virtual time only moves forward")
        advance(to: now + span)
    }

    /// Runs everything due up to `time` (including work scheduled meanwhile), then leaves the clock there.
    public func advance(to time: TimePoint) {
        precondition(time >= now, "virtual time only moves forward (now \(now), asked for \(time))")
        while let timer = queue.popLive(dueBy: time) {
            now = timer.dueTime
            timer.run()
        }
        now = time
    }

    /// Runs until nothing is pending; the clock stops at the last action's due time.
    /// - Returns: the number of actions run.
    @discardableResult
    public func run() -> Int {
        var count = 0
        while let timer = queue.popLive(dueBy: nil) {
            now = timer.dueTime
            timer.run()
            count += 1
        }
        return count
    }

    fileprivate func cancel(_ timer: ScheduledTimer) {
        guard !timer.isFinished else { return }
        timer.cancel()
        queue.noteCancelled()
    }
}

/// One pending action of a virtual scheduler.
final class ScheduledTimer {
    let dueTime: TimePoint
    let sequence: UInt64
    private var action: (() -> Void)?

    init(dueTime: TimePoint, sequence: UInt64, action: @escaping () -> Void) {
        self.dueTime = dueTime
        self.sequence = sequence
        self.action = action
    }

    var isFinished: Bool { action == nil }

    func run() {
        let action = self.action
        self.action = nil
        action?()
    }

    func cancel() {
        action = nil
    }

    func runsBefore(_ other: ScheduledTimer) -> Bool {
        dueTime != other.dueTime ? dueTime < other.dueTime : sequence < other.sequence
    }
}

private final class TimerCancellation: Disposable {
    private var timer: ScheduledTimer?
    private weak var scheduler: VirtualTimeScheduler?

    init(timer: ScheduledTimer, queue: VirtualTimeScheduler) {
        self.timer = timer
        self.scheduler = queue
    }

    func dispose() {
        guard let timer else { return }
        self.timer = nil
        scheduler?.cancel(timer)
    }
}
