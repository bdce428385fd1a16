import SignupCore

/// A form's event as a notification still to be encoded, so that a sink may encode it later and
/// on another thread (the writer's, with the virtual clock) rather than on the event loop.
struct FormNotification: Sendable {
    /// The form the event is about, shared by all of that form's notifications. Not final, so
    /// that the object sending a form's notifications can be their source too (one object per
    /// form an event touches, not two). Unchecked: immutable, and subclasses add only state the
    /// writer never reads.
    class Source: @unchecked Sendable {
        let form: String
        /// Boxed: an action is large (128 bytes) and read only for submission events, and inline
        /// it would push what a subclass adds onto a further cache line.
        private let submit: SubmitActionBox

        var action: SubmitAction { submit.action }

        init(form: String, action: SubmitAction) {
            self.form = form
            submit = SubmitActionBox(action)
        }
    }

    private final class SubmitActionBox: Sendable {
        let action: SubmitAction

        init(_ action: SubmitAction) {
            self.action = action
        }
    }

    let source: Source
    let event: FormEvent
    /// The clock's time when the event happened, in milliseconds.
    let at: Int64

    func write(to writer: inout JSONWriter) {
        Notifications.write(event, form: source.form, at: at, action: source.action, to: &writer)
    }

    /// Only the latest field result, and the latest `submitEnabled`, of a form matter; submission
    /// events are never dropped.
    var conflationKey: ConflationKey? {
        switch event {
        case .fieldChanged(let update): ConflationKey(form: source.form, topic: update.field)
        case .submitEnabledChanged: ConflationKey(form: source.form, topic: "")
        case .submissionChanged: nil
        }
    }
}
