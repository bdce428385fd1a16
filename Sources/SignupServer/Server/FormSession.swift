import SignupCore
import SignupProtocol

/// One open form on the wire: its id and its pipeline. A value, kept in the form table's slots,
/// so that finding a form and editing it read no object of its own between the two.
package struct FormSession {
    package let id: String
    package let pipeline: FormPipeline

    /// Starts sending the form's events as notifications through `channel`, naming `submit` as
    /// its action: first its current results, then every change, until the form closes.
    func startEvents(on channel: NotificationChannel, submit: FormNotification.Submit) {
        let sender = NotificationSender(form: id, submit: submit, channel: channel)
        // Closing the form lets go of the sender; nothing else ends the attachment.
        _ = pipeline.attach(sender)
    }

    package func close() {
        pipeline.close()
    }
}

/// Where every form's notifications go, and the time they carry: one for all forms, so an event
/// reads an object all forms share rather than more of its own form's.
package final class NotificationChannel {
    private let sink: any MessageSink
    /// The time in milliseconds.
    private let clock: () -> Int64

    package init(sink: any MessageSink, clock: @escaping () -> Int64) {
        self.sink = sink
        self.clock = clock
    }

    /// Sends `event` of `form` as a notification, stamped with the time now.
    package func send(_ event: consuming FormEvent, of form: String, submit: FormNotification.Submit) {
        sink.send(event, of: form, at: clock(), submit: submit)
    }
}

/// Turns a form's events into notifications. Apart from the session, so that the form holding
/// it does not hold the session that holds the form.
private final class NotificationSender: FormEventReceiver {
    private let form: String
    private let submit: FormNotification.Submit
    private let channel: NotificationChannel

    init(form: String, submit: FormNotification.Submit, channel: NotificationChannel) {
        self.form = form
        self.submit = submit
        self.channel = channel
    }

    func receive(_ event: consuming FormEvent) {
        channel.send(event, of: form, submit: submit)
    }

    func formDidClose() {}
}
