/// What a `TimerHeap` holds: something with a place in time, earliest first.
protocol TimerHeapElement {
    func runsBefore(_ other: Self) -> Bool
}

/// A binary min-heap: the timers of the virtual clock (`TimerQueue`) and of the event loop
/// (`LoopTimers`), earliest first.
///
/// The sifts work on the heap's memory directly: through the array, each comparison copied its
/// elements out, retaining and releasing their timers. The top is read in place and moved out,
/// never copied: a copy retained its timer, and overwriting its slot released it again.
struct TimerHeap<Element: TimerHeapElement> {
    private var elements: [Element] = []

    var count: Int { elements.count }
    var isEmpty: Bool { elements.isEmpty }
    /// The earliest element.
    var first: Element? { elements.first }

    /// Whether there is an earliest element and it satisfies `predicate`, which borrows it in
    /// place rather than a copy (that retained its timer).
    func firstSatisfies(_ predicate: (Element) -> Bool) -> Bool {
        !elements.isEmpty && predicate(elements[0])
    }

    mutating func insert(_ element: consuming Element) {
        elements.append(element)
        siftUp(elements.count - 1)
    }

    /// Removes the earliest element; the heap must not be empty.
    @discardableResult
    mutating func removeFirst() -> Element {
        elements.withUnsafeMutableBufferPointer { $0.swapAt(0, $0.count - 1) }
        let first = elements.removeLast()
        if !elements.isEmpty { siftDown(0) }
        return first
    }

    /// Drops every element `shouldBeRemoved` picks, and orders the rest again.
    mutating func removeAll(where shouldBeRemoved: (Element) -> Bool) {
        elements.removeAll(where: shouldBeRemoved)
        if elements.count > 1 {
            for index in stride(from: elements.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        }
    }

    private mutating func siftUp(_ start: Int) {
        elements.withUnsafeMutableBufferPointer { heap in
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
        elements.withUnsafeMutableBufferPointer { heap in
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
