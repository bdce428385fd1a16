import SignupCore

/// One open form on the wire: its id and its pipeline. A value, kept in the form table's slots,
/// so that finding a form and editing it read no object of its own between the two.
struct FormSession {
    let id: String
    let pipeline: FormPipeline

    /// Starts sending the form's events as notifications through `channel`: first its current
    /// results, then every change, until the form closes.
    func startEvents(on channel: NotificationChannel) {
        let sender = NotificationSender(form: id, action: pipeline.definition.submit, channel: channel)
        // Closing the form lets go of the sender; nothing else ends the attachment.
        _ = pipeline.attach(sender)
    }

    func close() {
        pipeline.close()
    }
}

/// Where every form's notifications go, and the time they carry: one for all forms, so an event
/// reads an object all forms share rather than more of its own form's.
final class NotificationChannel {
    private let sink: any MessageSink
    /// The time in milliseconds.
    private let clock: () -> Int64

    init(sink: any MessageSink, clock: @escaping () -> Int64) {
        self.sink = sink
        self.clock = clock
    }

    /// Sends `event` as a notification from `source`, stamped with the time now.
    func send(_ event: FormEvent, from source: FormNotification.Source) {
        sink.send(FormNotification(source: source, event: event, at: clock()))
    }
}

/// Turns a form's events into notifications, and is their source. Apart from the session, so
/// that the form holding it does not hold the session that holds the form.
private final class NotificationSender: FormNotification.Source, FormEventReceiver, @unchecked Sendable {
    // Unchecked Sendable: the writer reads only the source's immutable part; the loop alone calls
    // `receive`, which uses `channel`.
    private let channel: NotificationChannel

    init(form: String, action: SubmitAction, channel: NotificationChannel) {
        self.channel = channel
        super.init(form: form, action: action)
    }

    func receive(_ event: FormEvent) {
        channel.send(event, from: self)
    }

    func formDidClose() {}
}
