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
        let source = FormNotification.Source(form: id, action: pipeline.definition.submit)
        attachment = pipeline.attach(NotificationSender(source: source, sink: sink, clock: clock))
    }

    func close() {
        pipeline.close()
        attachment?.dispose()
        attachment = nil
    }
}

/// Turns a form's events into notifications for the sink. Apart from the session, so that the
/// form holding it does not hold the session that holds the form.
private final class NotificationSender: FormEventReceiver {
    private let source: FormNotification.Source
    private let sink: any MessageSink
    private let clock: () -> Int64

    init(source: FormNotification.Source, sink: any MessageSink, clock: @escaping () -> Int64) {
        self.source = source
        self.sink = sink
        self.clock = clock
    }

    func receive(_ event: FormEvent) {
        sink.send(FormNotification(source: source, event: event, at: clock()))
    }

    func formDidClose() {}
}
