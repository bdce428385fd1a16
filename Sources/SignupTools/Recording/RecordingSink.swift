import SignupCore
import SignupProtocol
import SignupServer
import SignupTransport

/// Hands every message to the recorder, then to the real sink. When the recorder takes messages
/// from its tee, as the sink's writer wrote them, only their time is noted; otherwise a
/// notification is noted as a value, its field result encoded once in the recorder's
/// `fieldResults`, and encoded into the recording on the recorder's thread; the sink still takes
/// it in its own form.
final class RecordingSink: MessageSink {
    private let sink: any MessageSink
    private let recorder: SessionRecorder

    init(_ sink: any MessageSink, recorder: SessionRecorder) {
        self.sink = sink
        self.recorder = recorder
    }

    func send(_ message: UnsafeRawBufferPointer, conflationKey: @autoclosure () -> ConflationKey?) {
        if recorder.tee != nil { recorder.recordTeedOut() } else { recorder.recordOut(message) }
        sink.send(message, conflationKey: conflationKey())
    }

    func send(_ event: consuming FormEvent, of form: String, at time: Int64, submit: FormNotification.Submit) {
        if recorder.tee != nil {
            recorder.recordTeedOut()
        } else if case .fieldChanged(let update) = event, let entry = recorder.fieldResults.entry(for: update) {
            recorder.recordFieldChanged(form: form, entry: entry, version: update.version, at: time)
        } else {
            recorder.recordOut(FormNotification(form: form, event: copy event, at: time, submit: submit))
        }
        sink.send(event, of: form, at: time, submit: submit)
    }
}
