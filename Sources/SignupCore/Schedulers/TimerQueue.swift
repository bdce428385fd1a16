/// A binary min-heap of timers ordered by due time, then sequence.
///
/// Cancelled timers are dropped lazily; once they outnumber live ones the heap is rebuilt, so a
/// stream of debounced keystrokes cannot make it grow without bound.
struct TimerQueue {
    /// A timer with its ordering copied beside it, so sifting compares without following pointers.
    private struct Entry: TimerHeapElement {
        var dueTime: TimePoint
        var sequence: UInt64
        var timer: ScheduledTimer

        init(_ timer: consuming ScheduledTimer) {
            dueTime = timer.dueTime
            sequence = timer.sequence
            self.timer = timer
        }

        func runsBefore(_ other: Entry) -> Bool {
            dueTime != other.dueTime ? dueTime < other.dueTime : sequence < other.sequence
        }
    }

    private var heap = TimerHeap<Entry>()
    /// Shared with every timer of this queue, which counts itself here when cancelled.
    let ledger: CancellationLedger

    init(ledger: CancellationLedger) {
        self.ledger = ledger
    }

    var liveCount: Int { heap.count - ledger.cancelledCount }

    /// Timers in the heap, cancelled ones included.
    var storedCount: Int { heap.count }

    /// Takes the timer over: borrowed, it was retained for the heap and released again.
    mutating func insert(_ timer: consuming ScheduledTimer) {
        let cancelled = ledger.cancelledCount
        if cancelled > 64 && cancelled * 2 > heap.count { compact() }
        heap.insert(Entry(timer))
    }

    /// The due time of the earliest timer held, live or cancelled: no live timer is due sooner.
    var earliestDueTime: TimePoint? { heap.first?.dueTime }

    mutating func peekLive() -> ScheduledTimer? {
        dropCancelledTop()
        return heap.first?.timer
    }

    /// Removes and returns the earliest live timer due at or before `limit`.
    mutating func popLive(dueBy limit: TimePoint) -> ScheduledTimer? {
        dropCancelledTop()
        guard heap.firstSatisfies({ $0.dueTime <= limit }) else { return nil }
        return heap.removeFirst().timer
    }

    private mutating func dropCancelledTop() {
        while heap.firstSatisfies({ $0.timer.isFinished }) {
            heap.removeFirst()
            ledger.cancelledCount = ledger.cancelledCount - 1
        }
    }

    private mutating func compact() {
        heap.removeAll { $0.timer.isFinished }
        ledger.cancelledCount = 0
    }
}
