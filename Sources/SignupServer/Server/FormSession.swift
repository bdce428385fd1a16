import SignupCore

/// One open form on the wire: its pipeline, and its events turned into notifications.
final class FormSession {
    let id: String
    let pipeline: FormPipeline
    private var attachment: (any Disposable)?

    init(id: String, pipeline: FormPipeline) {
        self.id = id
        self.pipeline = pipeline
    }

    /// Starts sending the form's events: first its current results, then every change.
    func startEvents(to sink: any MessageSink, clock: @escaping () -> Int64) {
        let sender = NotificationSender(form: id, action: pipeline.definition.submit, sink: sink, clock: clock)
        attachment = pipeline.attach(sender)
    }

    func close() {
        pipeline.close()
        attachment?.dispose()
        attachment = nil
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
