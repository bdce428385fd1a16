import SignupCore
import SignupProtocol
import SignupTransport

/// Where the server's outgoing messages go, one complete JSON text at a time.
package protocol MessageSink: AnyObject {
    /// Sends a message; one with a conflation key may be replaced by a newer one with the same
    /// key while the client is not reading. The key is asked for only by a sink that conflates.
    /// The bytes are the sink's to copy during the call only.
    func send(_ message: UnsafeRawBufferPointer, conflationKey: @autoclosure () -> ConflationKey?)

    /// Sends `event` of `form`, which happened at `time`, as a notification, in order with the
    /// messages sent before and after it. A sink may keep it in its own form and encode it
    /// later; by default it is encoded at once.
    func send(_ event: consuming FormEvent, of form: String, at time: Int64, submit: FormNotification.Submit)
}

extension MessageSink {
    package func send(_ message: [UInt8]) {
        message.withUnsafeBytes { send($0, conflationKey: nil) }
    }

    package func send(_ event: consuming FormEvent, of form: String, at time: Int64, submit: FormNotification.Submit) {
        var writer = JSONWriter()
        send(FormNotification(form: form, event: event, at: time, submit: submit), encodingInto: &writer)
    }

    /// Encodes a notification now, into `writer` (emptied first, so a sender can reuse one and
    /// allocate nothing), and sends its bytes.
    package func send(_ notification: FormNotification, encodingInto writer: inout JSONWriter) {
        writer.removeAll()
        notification.write(to: &writer)
        writer.withBytes { send($0, conflationKey: notification.conflationKey) }
    }
}
