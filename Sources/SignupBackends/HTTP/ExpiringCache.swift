import SignupCore

/// Values kept for a while, at most `capacity` of them: past it the expired ones go, and if none
/// has, all of them, so a flood of distinct keys costs memory only up to the bound.
struct ExpiringCache<Key: Hashable, Value> {
    private var entries: [Key: (value: Value, until: TimePoint)] = [:]
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value kept for `key`, unless it has expired by `now`.
    func value(for key: Key, at now: TimePoint) -> Value? {
        guard let entry = entries[key], now < entry.until else { return nil }
        return entry.value
    }

    /// Keeps `value` from `now` for `span`; a span of zero or less keeps nothing.
    mutating func keep(_ value: Value, for key: Key, from now: TimePoint, during span: TimeSpan) {
        guard span > .zero else { return }
        if entries.count >= capacity {
            entries = entries.filter { now < $0.value.until }
            if entries.count >= capacity { entries.removeAll() }
        }
        entries[key] = (value, now + span)
    }
}
