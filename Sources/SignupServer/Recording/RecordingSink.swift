import SignupCore

/// Hands every message to the recorder, then to the real sink. Notifications are encoded here for
/// the recording, on the loop, so it holds them in the order and at the time they were sent; the
/// sink still takes them in its own form (the stdout writer encodes its copy on its own thread,
/// and takes a loop's worth at a time rather than a lock per message).
final class RecordingSink: MessageSink {
    private let sink: any MessageSink
    private let recorder: SessionRecorder
    private var scratch = JSONWriter(capacity: 1024)
    /// Field results encoded once, so a field's change is recorded by copying its bytes.
    private let fieldResults = EncodedFieldResults()

    init(_ sink: any MessageSink, recorder: SessionRecorder) {
        self.sink = sink
        self.recorder = recorder
    }

    func send(_ message: UnsafeRawBufferPointer, conflationKey: @autoclosure () -> ConflationKey?) {
        recorder.recordOut(message)
        sink.send(message, conflationKey: conflationKey())
    }

    func send(_ event: consuming FormEvent, of form: String, at time: Int64, submit: FormNotification.Submit) {
        scratch.removeAll()
        if case .fieldChanged(let update) = event, let entry = fieldResults.entry(for: update) {
            FormNotification(form: form, fieldResult: entry, version: update.version, at: time).write(to: &scratch)
        } else {
            FormNotification(form: form, event: copy event, at: time, submit: submit).write(to: &scratch)
        }
        scratch.withBytes { recorder.recordOut($0) }
        sink.send(event, of: form, at: time, submit: submit)
    }
}
