/// A binary min-heap of timers ordered by due time, then sequence.
///
/// Cancelled timers are dropped lazily; once they outnumber live ones the heap is rebuilt, so a
/// stream of debounced keystrokes cannot make it grow without bound.
struct TimerQueue {
    /// A timer with its ordering copied beside it, so sifting compares without following pointers.
    private struct Entry {
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

    private var heap: [Entry] = []
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
        heap.append(Entry(timer))
        siftUp(heap.count - 1)
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
        guard !heap.isEmpty, heap[0].dueTime <= limit else { return nil }
        return removeTop().timer
    }

    // The top is read in place and moved out, never copied: a copy retained its timer, and
    // overwriting its slot released it again, on every timer that ran.

    private mutating func dropCancelledTop() {
        while !heap.isEmpty, heap[0].timer.isFinished {
            removeTop()
            ledger.cancelledCount = ledger.cancelledCount - 1
        }
    }

    @discardableResult
    private mutating func removeTop() -> Entry {
        heap.withUnsafeMutableBufferPointer { $0.swapAt(0, $0.count - 1) }
        let top = heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
        return top
    }

    private mutating func compact() {
        heap.removeAll { $0.timer.isFinished }
        ledger.cancelledCount = 0
        if heap.count > 1 {
            for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        }
    }

    // The sifts work on the heap's memory directly: through the array, each comparison copied
    // its entries out, retaining and releasing their timers.

    private mutating func siftUp(_ start: Int) {
        heap.withUnsafeMutableBufferPointer { heap in
            var child = start
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].runsBefore(heap[parent]) else { return }
                heap.swapAt(child, parent)
                child = parent
            }
        }
    }

    private mutating func siftDown(_ start: Int) {
        heap.withUnsafeMutableBufferPointer { heap in
            var parent = start
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { return }
                var first = left
                let right = left + 1
                if right < heap.count && heap[right].runsBefore(heap[left]) { first = right }
                guard heap[first].runsBefore(heap[parent]) else { return }
                heap.swapAt(first, parent)
                parent = first
            }
        }
    }
}
