import SignupCore

/// Hands every message to the recorder, then to the real sink. Notifications are encoded here,
/// on the loop, so the recording holds them in the order and at the time they were sent.
final class RecordingSink: MessageSink {
    private let sink: any MessageSink
    private let recorder: SessionRecorder
    private var scratch = JSONWriter(capacity: 1024)

    init(_ sink: any MessageSink, recorder: SessionRecorder) {
        self.sink = sink
        self.recorder = recorder
    }

    func send(_ message: UnsafeRawBufferPointer, conflationKey: @autoclosure () -> ConflationKey?) {
        recorder.recordOut(message)
        sink.send(message, conflationKey: conflationKey())
    }

    func send(_ event: consuming FormEvent, of form: String, at time: Int64, submit: FormNotification.Submit) {
        send(FormNotification(form: form, event: event, at: time, submit: submit), encodingInto: &scratch)
    }
}
