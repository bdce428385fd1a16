/// A scheduler whose clock moves only when told to: the heart of deterministic tests and of
/// `--clock virtual`. Work runs by due time, then first-in first-out; it is synchronous and
/// single-threaded, so the same calls always give the same interleaving.
///
/// The clock never passes `TimePoint.horizon`: work due after it is kept but never runs.
public final class VirtualTimeScheduler: Scheduler {
    private var clock: TimePoint
    private var queue: TimerQueue
    private let ledger = CancellationLedger()
    private var nextSequence: UInt64 = 0
    /// Timers that have run and that nothing else holds, kept to be armed again: most keystrokes
    /// schedule a timer, and one made afresh cost an allocation and a free.
    private var spareTimers: [ScheduledTimer] = []
    private static let spareTimersKept = 64

    public init(now: TimePoint = .origin) {
        clock = min(now, .horizon)
        queue = TimerQueue(ledger: ledger)
    }

    public var now: TimePoint { clock }

    /// Number of actions scheduled and not yet run or cancelled.
    public var pendingCount: Int { queue.liveCount }

    /// Timers still held, cancelled ones included: what the queue costs in memory (for tests).
    var storedTimerCount: Int { queue.storedCount }

    /// The due time of the earliest pending action that will ever run (due by the horizon).
    public var nextDueTime: TimePoint? { queue.peekLive().map(\.dueTime).flatMap { $0.isWithinHorizon ? $0 : nil } }

    @discardableResult
    public func schedule(after delay: TimeSpan, _ action: consuming @escaping () -> Void) -> any Disposable {
        let dueTime = now + max(delay, .zero)
        let timer: ScheduledTimer
        if let spare = spareTimers.popLast() {
            spare.arm(dueTime: dueTime, sequence: nextSequence, action: action)
            timer = spare
        } else {
            timer = ScheduledTimer(dueTime: dueTime, sequence: nextSequence, action: action, ledger: ledger)
        }
        nextSequence = nextSequence + 1
        queue.insert(timer)
        return timer
    }

    /// Runs everything due up to `now + span`, then leaves the clock there.
    public func advance(by span: TimeSpan) {
        precondition(span >= .zero, "virtual time only moves forward")
        advance(to: now + span)
    }

    /// Runs everything due up to `time` (including work scheduled meanwhile), then leaves the clock
    /// there; a time past the horizon stops the clock at the horizon.
    public func advance(to time: TimePoint) {
        precondition(time >= now, "virtual time only moves forward (now \(now), asked for \(time))")
        let time = min(time, .horizon)
        while let timer = queue.popLive(dueBy: time) {
            clock = timer.dueTime
            timer.run()
            keepIfSpare(timer)
        }
        clock = time
    }

    /// Runs until nothing is pending by the horizon; the clock stops at the last action's due time.
    /// - Returns: the number of actions run.
    @discardableResult
    public func run() -> Int {
        var count = 0
        while let timer = queue.popLive(dueBy: .horizon) {
            clock = timer.dueTime
            timer.run()
            keepIfSpare(timer)
            count += 1
        }
        return count
    }

    /// Keeps a timer that has run for the next `schedule`, unless something still holds it (a
    /// holder could dispose of it once it is armed again for someone else).
    private func keepIfSpare(_ timer: consuming ScheduledTimer) {
        guard spareTimers.count < Self.spareTimersKept, isKnownUniquelyReferenced(&timer) else { return }
        spareTimers.append(timer)
    }
}

/// One pending action of a virtual scheduler; disposing it cancels the action.
///
/// A cancelled timer stays in the heap until it reaches the top or the heap is compacted; the
/// ledger tells the queue how many such timers it holds without a reference back to the scheduler.
final class ScheduledTimer: Disposable {
    private(set) var dueTime: TimePoint
    private(set) var sequence: UInt64
    private var action: (() -> Void)?
    private let ledger: CancellationLedger

    init(dueTime: TimePoint, sequence: UInt64, action: consuming @escaping () -> Void, ledger: CancellationLedger) {
        self.dueTime = dueTime
        self.sequence = sequence
        self.action = action
        self.ledger = ledger
    }

    var isFinished: Bool { action == nil }

    /// Sets a finished timer that nothing else holds going again, as if made anew.
    func arm(dueTime: TimePoint, sequence: UInt64, action: consuming @escaping () -> Void) {
        precondition(isFinished, "a timer armed while pending")
        self.dueTime = dueTime
        self.sequence = sequence
        self.action = action
    }

    func run() {
        // Moved out rather than copied and cleared, which retained and released its context.
        guard let action = self.action.take() else { return }
        action()
    }

    /// Cancels the action unless it has already run or been cancelled.
    func dispose() {
        guard action != nil else { return }
        action = nil
        ledger.cancelledCount = ledger.cancelledCount + 1
    }
}

/// How many timers of one queue were cancelled while still in its heap.
final class CancellationLedger {
    var cancelledCount = 0
}
