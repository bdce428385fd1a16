/// The events of one change of a form, gathered before they are sent. A keystroke's change has a
/// few events (the fields it judged, and whether submit is enabled), kept in the value itself, on
/// the stack: no allocation, and no closure holding the form's parts for the change's length.
///
/// Four named slots rather than an `InlineArray`: destroying one of those went through the
/// element type's generic witness for every slot, several calls on each keystroke.
struct ChangeEvents: ~Copyable {
    private var first: FormEvent?
    private var second: FormEvent?
    private var third: FormEvent?
    private var fourth: FormEvent?
    /// Events after the fourth (a field on which many others depend); nil, with nothing to
    /// release, until there is one.
    private var overflow: [FormEvent]?
    private(set) var count = 0

    init() {}

    mutating func append(_ event: consuming FormEvent) {
        switch count {
        case 0: first = event
        case 1: second = event
        case 2: third = event
        case 3: fourth = event
        default:
            var events = overflow.take() ?? []
            events.append(event)
            overflow = events
        }
        count += 1
    }

    var isEmpty: Bool { count == 0 }

    /// A copy of the event at `index` (below `count`), for a receiver that is not the last to
    /// hear it. An index past what was appended stops the process, in release builds too.
    subscript(index: Int) -> FormEvent {
        let event: FormEvent? = switch index {
        case 0: first
        case 1: second
        case 2: third
        case 3: fourth
        default: overflow?[index - 4]
        }
        guard let event else { preconditionFailure("event \(index) of a change of \(count) read") }
        return event
    }

    /// Moves the event at `index` out, for its last receiver; a second take of it is a mistake. An
    /// event past the fourth (rare) is copied.
    mutating func take(_ index: Int) -> FormEvent {
        let event: FormEvent?
        switch index {
        case 0: event = first.take()
        case 1: event = second.take()
        case 2: event = third.take()
        case 3: event = fourth.take()
        default:
            guard let overflow, index - 4 < overflow.count else { preconditionFailure("event \(index) of a change of \(count) taken") }
            return overflow[index - 4]
        }
        guard let event else { preconditionFailure("event \(index) of a change taken twice") }
        return event
    }
}
