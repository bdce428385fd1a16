import Synchronization

/// Work for the event loop at a time of the wall clock (uptime nanoseconds).
final class LoopTimer: Sendable {
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
    private var heap: [LoopTimer] = []
    private var scheduled: UInt64 = 0

    mutating func add(dueTime: UInt64, work: UncheckedTransfer<() -> Void>) -> LoopTimer {
        scheduled &+= 1
        let timer = LoopTimer(dueTime: dueTime, sequence: scheduled, work: work)
        heap.append(timer)
        var child = heap.count - 1
        while child > 0, heap[child].runsBefore(heap[(child - 1) / 2]) {
            heap.swapAt(child, (child - 1) / 2)
            child = (child - 1) / 2
        }
        return timer
    }

    /// Removes and returns the earliest timer due at or before `time`, cancelled ones included.
    mutating func removeEarliest(dueBy time: UInt64) -> LoopTimer? {
        guard let earliest = heap.first, earliest.dueTime <= time else { return nil }
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while case let left = 2 * parent + 1, left < heap.count {
            let right = left + 1
            let first = right < heap.count && heap[right].runsBefore(heap[left]) ? right : left
            guard heap[first].runsBefore(heap[parent]) else { break }
            heap.swapAt(first, parent)
            parent = first
        }
        return earliest
    }
}
