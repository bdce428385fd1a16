/// Follows one form's events with a call per event and nothing between: the lean way for a host
/// with many forms (such as the server) to hear about them. `FormPipeline.events` is built on it.
///
/// Called on the form's scheduler's executor, in the order `FormEvent` documents.
public protocol FormEventReceiver: AnyObject {
    /// One of the form's events.
    func receive(_ event: FormEvent)
    /// The form closed; no event follows.
    func formDidClose()
}

/// The receivers of a form's events, apart from the form so that a subscription need not
/// reference the form itself.
final class FormReceivers {
    private typealias Entry = (id: Int, receiver: any FormEventReceiver)
    // Unchecked: read whole (a copy) or changed by calls that call out to nothing.
    /// The earliest receiver still attached, kept inline: a form nearly always has one, and an
    /// event then reads no list.
    @exclusivity(unchecked) private var first: Entry?
    /// The others, in the order they attached.
    @exclusivity(unchecked) private var others: [Entry] = []
    private var nextID = 0

    /// Adds a receiver until the returned disposable is disposed.
    func add(_ receiver: any FormEventReceiver) -> any Disposable {
        let id = nextID
        nextID += 1
        if first == nil && others.isEmpty { first = (id, receiver) } else { others.append((id, receiver)) }
        return Disposables.create { [self] in remove(id) }
    }

    /// Sends one change's events to every receiver, each receiver getting them all in order.
    func send(_ events: UnsafeBufferPointer<FormEvent>) {
        // To the receivers as they were when sending began, as a receiver may detach (itself or
        // another) or attach one while it is called; a receiver detached meanwhile hears nothing
        // more, and one attached meanwhile hears the next change.
        let others = others
        if let first {
            for event in events.indices {
                guard self.first?.id == first.id else { break }
                first.receiver.receive(events[event])
            }
        }
        for entry in others {
            for event in events.indices {
                guard isAttached(entry.id) else { break }
                entry.receiver.receive(events[event])
            }
        }
    }

    /// Tells every receiver the form closed, and forgets them.
    func closeAll() {
        let finished = (first.map { [$0] } ?? []) + others
        first = nil
        others = []
        for entry in finished { entry.receiver.formDidClose() }
    }

    private func remove(_ id: Int) {
        if first?.id == id {
            first = others.isEmpty ? nil : others.removeFirst()
        } else {
            others.removeAll { $0.id == id }
        }
    }

    private func isAttached(_ id: Int) -> Bool {
        first?.id == id || others.contains { $0.id == id }
    }
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
