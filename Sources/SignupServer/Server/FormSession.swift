import SignupCore

/// One open form on the wire: its id and its pipeline. A value, kept in the form table's slots,
/// so that finding a form and editing it read no object of its own between the two.
struct FormSession {
    let id: String
    let pipeline: FormPipeline

    /// Starts sending the form's events as notifications: first its current results, then every
    /// change, until the form closes.
    func startEvents(to sink: any MessageSink, clock: @escaping () -> Int64) {
        let sender = NotificationSender(form: id, action: pipeline.definition.submit, sink: sink, clock: clock)
        // Closing the form lets go of the sender; nothing else ends the attachment.
        _ = pipeline.attach(sender)
    }

    func close() {
        pipeline.close()
    }
}

/// Turns a form's events into notifications for the sink, and is their source. Apart from the
/// session, so that the form holding it does not hold the session that holds the form.
private final class NotificationSender: FormNotification.Source, FormEventReceiver, @unchecked Sendable {
    // Unchecked Sendable: the writer reads only the source's immutable part; the loop alone calls
    // `receive`, which reads `sink` and `clock`.
    private let sink: any MessageSink
    private let clock: () -> Int64

    init(form: String, action: SubmitAction, sink: any MessageSink, clock: @escaping () -> Int64) {
        self.sink = sink
        self.clock = clock
        super.init(form: form, action: action)
    }

    func receive(_ event: FormEvent) {
        sink.send(FormNotification(source: self, event: event, at: clock()))
    }

    func formDidClose() {}
}
