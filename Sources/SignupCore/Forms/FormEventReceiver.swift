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
    /// Unchecked: read whole (a copy) or changed by calls that call out to nothing.
    @exclusivity(unchecked) private var receivers: [(id: Int, receiver: any FormEventReceiver)] = []
    private var nextID = 0

    /// Adds a receiver until the returned disposable is disposed.
    func add(_ receiver: any FormEventReceiver) -> any Disposable {
        let id = nextID
        nextID += 1
        receivers.append((id, receiver))
        return Disposables.create { [self] in receivers.removeAll { $0.id == id } }
    }

    /// Sends one change's events to every receiver, each receiver getting them all in order.
    func send(_ events: UnsafeBufferPointer<FormEvent>) {
        // Over the list as it was when sending began, as a receiver may detach (itself or another)
        // while it is called; a receiver detached meanwhile hears nothing more.
        let receivers = receivers
        for entry in receivers {
            for event in events.indices {
                guard isAttached(entry.id) else { break }
                entry.receiver.receive(events[event])
            }
        }
    }

    /// Tells every receiver the form closed, and forgets them.
    func closeAll() {
        let finished = receivers
        receivers = []
        for entry in finished { entry.receiver.formDidClose() }
    }

    private func isAttached(_ id: Int) -> Bool {
        // Nearly always one receiver: the scan is a comparison or two.
        receivers.contains { $0.id == id }
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
