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
    func startEvents(to sink: any MessageSink, encoder: MessageEncoder, clock: @escaping () -> Int64) {
        let id = self.id
        let action = pipeline.definition.submit
        // An observer of its own rather than `subscribe(onNext:)`, whose wrapping closure would
        // add an object and a copy of the event to every notification.
        subscription = pipeline.events.subscribe(Observer { event in
            guard case .next(let event) = event else { return }
            encoder.send(to: sink, conflationKey: Self.conflationKey(of: event, form: id)) {
                Notifications.write(event, form: id, at: clock(), action: action, to: &$0)
            }
        })
    }

    private static func conflationKey(of event: FormEvent, form: String) -> ConflationKey? {
        switch event {
        case .fieldChanged(let update): ConflationKey(form: form, topic: update.field)
        case .submitEnabledChanged: ConflationKey(form: form, topic: "")
        case .submissionChanged: nil
        }
    }

    func close() {
        pipeline.close()
        subscription?.dispose()
        subscription = nil
    }
}
