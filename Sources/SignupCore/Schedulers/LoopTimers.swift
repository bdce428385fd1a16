import Synchronization

/// Work for the event loop at a time of the wall clock (uptime nanoseconds).
final class LoopTimer: Sendable, TimerHeapElement {
    let dueTime: UInt64
    let sequence: UInt64
    /// Nil once the timer has run or been cancelled.
    private let work: Mutex<UncheckedTransfer<() -> Void>?>

    init(dueTime: UInt64, sequence: UInt64, work: UncheckedTransfer<() -> Void>) {
        self.dueTime = dueTime
        self.sequence = sequence
        self.work = Mutex(work)
    }

    /// The work, once: nil when it has been taken or the timer cancelled.
    func take() -> (() -> Void)? {
        work.withLock { $0.take()?.value }
    }

    /// The work is dropped at once and never runs. Safe from any thread.
    func cancel() {
        _ = work.withLock { $0.take() }
    }

    func runsBefore(_ other: LoopTimer) -> Bool {
        dueTime != other.dueTime ? dueTime < other.dueTime : sequence < other.sequence
    }
}

/// The loop's pending timers, earliest first, ties in the order they were scheduled: the order a
/// virtual clock runs them in, which the loop keeps when it runs the overdue ones together.
struct LoopTimers {
    private var heap = TimerHeap<LoopTimer>()
    private var scheduled: UInt64 = 0

    mutating func add(dueTime: UInt64, work: UncheckedTransfer<() -> Void>) -> LoopTimer {
        scheduled &+= 1
        let timer = LoopTimer(dueTime: dueTime, sequence: scheduled, work: work)
        heap.insert(timer)
        return timer
    }

    /// Removes and returns the earliest timer due at or before `time`, cancelled ones included.
    mutating func removeEarliest(dueBy time: UInt64) -> LoopTimer? {
        heap.firstSatisfies({ $0.dueTime <= time }) ? heap.removeFirst() : nil
    }
}
