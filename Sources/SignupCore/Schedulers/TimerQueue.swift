/// A binary min-heap of timers ordered by due time, then sequence.
///
/// Cancelled timers are dropped lazily; once they outnumber live ones the heap is rebuilt, so a
/// stream of debounced keystrokes cannot make it grow without bound.
struct TimerQueue {
    private var heap: [ScheduledTimer] = []
    private var cancelledCount = 0

    var liveCount: Int { heap.count - cancelledCount }

    mutating func insert(_ timer: ScheduledTimer) {
        heap.append(timer)
        siftUp(heap.count - 1)
    }

    mutating func noteCancelled() {
        cancelledCount += 1
        if cancelledCount > 64 && cancelledCount * 2 > heap.count {
            compact()
        }
    }

    mutating func peekLive() -> ScheduledTimer? {
        dropCancelledTop()
        return heap.first
    }

    /// Removes and returns the earliest live timer due at or before `limit` (any, when nil).
    mutating func popLive(dueBy limit: TimePoint?) -> ScheduledTimer? {
        dropCancelledTop()
        guard let top = heap.first else { return nil }
        if let limit, top.dueTime > limit { return nil }
        removeTop()
        return top
    }

    private mutating func dropCancelledTop() {
        while let top = heap.first, top.isFinished {
            removeTop()
            cancelledCount -= 1
        }
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
    }

    private mutating func compact() {
        heap.removeAll { $0.isFinished }
        cancelledCount = 0
        if heap.count > 1 {
            for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].runsBefore(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
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
