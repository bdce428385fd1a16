/// Follows one form's events with a call per event and nothing between: the lean way for a host
/// with many forms (such as the server) to hear about them. `FormPipeline.events` is built on it.
///
/// Called on the form's scheduler's executor, in the order `FormEvent` documents.
public protocol FormEventReceiver: AnyObject {
    /// One of the form's events; the receiver may keep it without a copy.
    func receive(_ event: consuming FormEvent)
    /// The form closed; no event follows.
    func formDidClose()
}

/// The receivers of a form's events, kept in the form itself: a form nearly always has one, and
/// sending to it then reads no object but the receiver. Calls out to nothing; the form does the
/// sending (`FormPipeline.send`), reading the list afresh around each call.
struct FormReceivers {
    typealias Entry = (id: Int, receiver: any FormEventReceiver)
    /// The earliest receiver still attached.
    private(set) var first: Entry?
    /// The others, in the order they attached.
    private(set) var others: [Entry] = []
    private var nextID = 0

    /// Adds a receiver; returns the id that removes it.
    mutating func add(_ receiver: any FormEventReceiver) -> Int {
        let id = nextID
        nextID += 1
        if first == nil && others.isEmpty { first = (id, receiver) } else { others.append((id, receiver)) }
        return id
    }

    /// Removes the receiver `id`, and hands it back: released by the caller, once it has put the
    /// receivers back (its deinit may reach the form).
    mutating func remove(_ id: Int) -> Entry? {
        if first?.id == id {
            let removed = first
            first = others.isEmpty ? nil : others.removeFirst()
            return removed
        }
        guard let index = others.firstIndex(where: { $0.id == id }) else { return nil }
        return others.remove(at: index)
    }

    /// Every receiver, in the order they attached, leaving none.
    mutating func removeAll() -> [Entry] {
        let all = (first.map { [$0] } ?? []) + others
        first = nil
        others = []
        return all
    }

    func isAttached(_ id: Int) -> Bool {
        first?.id == id || others.contains { $0.id == id }
    }
}

/// How whatever outlives a call into a form reaches it without holding it (a subscription that
/// detaches, a check runner's timer or answer): a form dropped while they wait still closes in
/// `deinit`, which clears the link first, so they find nil rather than a form being destroyed.
///
/// Checked `unowned` rather than `weak`: as safe once cleared, without moving the form's counts
/// to a side table (a weak reference does, which made every retain of the form slower).
final class FormLink {
    unowned var form: FormPipeline?
}

/// Hands a form's events to an observer of `FormPipeline.events`.
final class ObserverReceiver: FormEventReceiver {
    private let observer: Observer<FormEvent>

    init(_ observer: Observer<FormEvent>) {
        self.observer = observer
    }

    func receive(_ event: FormEvent) {
        observer.onNext(event)
    }

    func formDidClose() {
        observer.onCompleted()
    }
}
