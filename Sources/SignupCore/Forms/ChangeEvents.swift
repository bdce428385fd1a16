/// The events of one change of a form, gathered on the stack before they are sent, so that a
/// keystroke's change allocates nothing; a change never has more events than its form has fields,
/// plus one for the submission and one for whether submit is enabled.
struct ChangeEvents: ~Copyable {
    private let storage: UnsafeMutableBufferPointer<FormEvent>
    private var count = 0

    private init(storage: UnsafeMutableBufferPointer<FormEvent>) {
        self.storage = storage
    }

    /// Runs `body` with room for `capacity` events; the events are destroyed when it returns.
    static func gathering<Result>(capacity: Int, _ body: (inout ChangeEvents) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: FormEvent.self, capacity: capacity) { buffer in
            var change = ChangeEvents(storage: buffer)
            let result = body(&change)
            buffer.baseAddress!.deinitialize(count: change.count)
            return result
        }
    }

    mutating func append(_ event: consuming FormEvent) {
        precondition(count < storage.count, "a change has more events than its room")
        (storage.baseAddress! + count).initialize(to: event)
        count += 1
    }

    var isEmpty: Bool { count == 0 }

    /// The events so far, valid while the gathering runs.
    var events: UnsafeBufferPointer<FormEvent> {
        UnsafeBufferPointer(rebasing: storage[..<count])
    }
}
