/// A scheduler whose clock moves only when told to: the heart of deterministic tests and of
/// `--clock virtual`. Work runs by due time, then first-in first-out; it is synchronous and
/// single-threaded, so the same calls always give the same interleaving.
///
/// The clock never passes `TimePoint.horizon`: work due after it is kept but never runs.
public final class VirtualTimeScheduler: Scheduler {
    /// The clock and its timers as one value, so that scheduling or running a timer is one
    /// (exclusivity-checked) access to the scheduler rather than one per member.
    private var timeline: Timeline
    /// The timeline's time, kept beside it as a scalar: read on every event, it then costs a load
    /// rather than an access to the timeline.
    private var clock: TimePoint
    /// No timer is due before this (a cancelled one may be): a scalar, so that a message's `at`
    /// that nothing is due by moves the clock without an access to the timeline.
    private var nothingDueBefore: TimePoint = TimePoint(milliseconds: .max)
    private let ledger = CancellationLedger()

    public init(now: TimePoint = .origin) {
        clock = min(now, .horizon)
        timeline = Timeline(ledger: ledger)
    }

    public var now: TimePoint { clock }

    /// Number of actions scheduled and not yet run or cancelled.
    public var pendingCount: Int { timeline.queue.liveCount }

    /// Timers still held, cancelled ones included: what the queue costs in memory (for tests).
    var storedTimerCount: Int { timeline.queue.storedCount }

    /// The due time of the earliest pending action that will ever run (due by the horizon).
    public var nextDueTime: TimePoint? { timeline.nextDueTime }

    @discardableResult
    public func schedule(after delay: TimeSpan, _ action: consuming @escaping () -> Void) -> any Disposable {
        let dueTime = clock + max(delay, .zero)
        nothingDueBefore = min(nothingDueBefore, dueTime)
        return timeline.schedule(at: dueTime, action)
    }

    /// Runs everything due before `time`, then leaves the clock at `time` with the work due at it
    /// still waiting, for the next advance (even to the same time): what happens now comes first
    /// within the millisecond, as a message that arrived before that work did in real time.
    public func advance(toJustBefore time: TimePoint) {
        precondition(time >= now, "virtual time only moves forward (now \(now), asked for \(time))")
        let time = min(time, .horizon)
        if time > now { advance(to: TimePoint(milliseconds: time.milliseconds - 1)) }
        clock = time
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
        guard time >= nothingDueBefore else {
            clock = time
            return
        }
        var finished: ScheduledTimer?
        // Each timer runs outside any access to the timeline: its action may schedule another.
        while let timer = timeline.next(dueBy: time, recycling: finished.take()) {
            clock = timer.dueTime
            timer.run()
            finished = timer
        }
        nothingDueBefore = timeline.queue.earliestDueTime ?? TimePoint(milliseconds: .max)
        clock = time
    }

    /// Runs until nothing is pending by the horizon; the clock stops at the last action's due time.
    /// - Returns: the number of actions run.
    @discardableResult
    public func run() -> Int {
        var count = 0
        var finished: ScheduledTimer?
        while let timer = timeline.next(dueBy: .horizon, recycling: finished.take()) {
            clock = timer.dueTime
            timer.run()
            finished = timer
            count += 1
        }
        nothingDueBefore = timeline.queue.earliestDueTime ?? TimePoint(milliseconds: .max)
        return count
    }
}

/// A virtual clock's timers, changed only by calls that call out to nothing.
private struct Timeline {
    private(set) var queue: TimerQueue
    private var nextSequence: UInt64 = 0
    /// Timers that have run and that nothing else holds, kept to be armed again: most keystrokes
    /// schedule a timer, and one made afresh cost an allocation and a free.
    private var spareTimers: [ScheduledTimer] = []
    private static let spareTimersKept = 64

    init(ledger: CancellationLedger) {
        queue = TimerQueue(ledger: ledger)
    }

    var nextDueTime: TimePoint? {
        mutating get { queue.peekLive().map(\.dueTime).flatMap { $0.isWithinHorizon ? $0 : nil } }
    }

    mutating func schedule(at dueTime: TimePoint, _ action: consuming @escaping () -> Void) -> ScheduledTimer {
        let timer: ScheduledTimer
        if let spare = spareTimers.popLast() {
            spare.arm(dueTime: dueTime, sequence: nextSequence, action: action)
            timer = spare
        } else {
            timer = ScheduledTimer(dueTime: dueTime, sequence: nextSequence, action: action, ledger: queue.ledger)
        }
        nextSequence += 1
        queue.insert(timer)
        return timer
    }

    /// Keeps the timer that ran last, then takes the earliest live one due by `time`.
    mutating func next(dueBy time: TimePoint, recycling finished: consuming ScheduledTimer?) -> ScheduledTimer? {
        recycle(finished)
        return queue.popLive(dueBy: time)
    }

    /// Keeps a timer that has run for the next `schedule`, unless something still holds it (a
    /// holder could dispose of it once it is armed again for someone else).
    private mutating func recycle(_ finished: consuming ScheduledTimer?) {
        guard var timer = finished.take(), spareTimers.count < Self.spareTimersKept,
              isKnownUniquelyReferenced(&timer) else { return }
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
