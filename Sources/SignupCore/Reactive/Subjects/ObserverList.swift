/// Observers in subscription order, removable by key; delivery iterates over a snapshot so
/// observers may subscribe or leave while an event is being delivered.
struct ObserverList<Element> {
    private var entries: [(key: Int, observer: Observer<Element>)] = []
    private var nextKey = 0

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    mutating func append(_ observer: Observer<Element>) -> Int {
        let key = nextKey
        nextKey += 1
        entries.append((key, observer))
        return key
    }

    mutating func remove(_ key: Int) {
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries.remove(at: index)
        }
    }

    mutating func removeAll() {
        entries.removeAll()
    }

    func forEach(_ body: (Observer<Element>) -> Void) {
        for entry in entries { body(entry.observer) }
    }
}
