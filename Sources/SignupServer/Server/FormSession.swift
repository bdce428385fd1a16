import SignupCore

/// One open form on the wire: its pipeline, and its events turned into notifications.
final class FormSession {
    let id: String
    let pipeline: FormPipeline
    private var subscription: (any Disposable)?

    init(id: String, pipeline: FormPipeline) {
        self.id = id
        self.pipeline = pipeline
    }

    /// Starts sending the form's events: first its current results, then every change.
    func startEvents(to sink: any MessageSink, clock: @escaping () -> Int64) {
        let source = FormNotification.Source(form: id, action: pipeline.definition.submit)
        // An observer of its own rather than `subscribe(onNext:)`, whose wrapping closure would
        // add an object and a copy of the event to every notification.
        subscription = pipeline.events.subscribe(Observer { event in
            guard case .next(let event) = event else { return }
            sink.send(FormNotification(source: source, event: event, at: clock()))
        })
    }

    func close() {
        pipeline.close()
        subscription?.dispose()
        subscription = nil
    }
}
