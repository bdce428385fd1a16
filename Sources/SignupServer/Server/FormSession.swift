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
        let id = self.id
        let action = pipeline.definition.submit
        subscription = pipeline.events.subscribe(onNext: { event in
            let key: ConflationKey? = switch event {
            case .fieldChanged(let update): ConflationKey(form: id, topic: update.field)
            case .submitEnabledChanged: ConflationKey(form: id, topic: "")
            case .submissionChanged: nil
            }
            sink.send(Notifications.encode(event, form: id, at: clock(), action: action), conflationKey: key)
        })
    }

    func close() {
        pipeline.close()
        subscription?.dispose()
        subscription = nil
    }
}
