/// The events of one change of a form, gathered before they are sent. A keystroke's change has a
/// few events (the fields it judged, and whether submit is enabled), kept in the value itself, on
/// the stack: no allocation, and no closure holding the form's parts for the change's length.
struct ChangeEvents: ~Copyable {
    /// Events beyond these (a field on which many others depend) go to `overflow`.
    private static let inlineCapacity = 4
    private var inline = InlineArray<4, FormEvent?>(repeating: nil)
    private var overflow: [FormEvent] = []
    private(set) var count = 0

    init() {}

    mutating func append(_ event: consuming FormEvent) {
        if count < Self.inlineCapacity {
            inline[count] = event
        } else {
            overflow.append(event)
        }
        count += 1
    }

    var isEmpty: Bool { count == 0 }

    /// A copy of the event at `index`, for a receiver that is not the last to hear it.
    subscript(index: Int) -> FormEvent {
        index < Self.inlineCapacity ? inline[index].unsafelyUnwrapped : overflow[index - Self.inlineCapacity]
    }

    /// Moves the event at `index` out, for its last receiver; a second take of it is a mistake.
    mutating func take(_ index: Int) -> FormEvent {
        guard index < Self.inlineCapacity else { return overflow[index - Self.inlineCapacity] }
        guard let event = inline[index].take() else { preconditionFailure("event \(index) of a change taken twice") }
        return event
    }
}
