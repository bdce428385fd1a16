import SignupCore

/// A form's event as a notification still to be encoded, so that a sink may encode it later and
/// on another thread (the writer's, with the virtual clock) rather than on the event loop.
struct FormNotification: Sendable {
    /// What a form submits, shared by all of that form's notifications.
    final class Submit: Sendable {
        let action: SubmitAction

        init(_ action: SubmitAction) {
            self.action = action
        }
    }

    let form: String
    let event: FormEvent
    /// The clock's time when the event happened, in milliseconds.
    let at: Int64
    /// Kept for submission events only, the one kind that names the action's states. Any other
    /// notification holds no object of its form's: the loop would retain it and the writer
    /// release it on every notification, each an atomic operation on a line the other core
    /// had just written.
    private let submit: Submit?

    init(form: String, event: FormEvent, at: Int64, submit: Submit) {
        self.form = form
        self.event = event
        self.at = at
        if case .submissionChanged = event { self.submit = submit } else { self.submit = nil }
    }

    func write(to writer: inout JSONWriter) {
        Notifications.write(event, form: form, at: at, action: submit.unsafelyUnwrapped.action, to: &writer)
    }

    /// As `write(to:)`, taking its field result, if it has one, from `results`.
    func write(to writer: inout JSONWriter, results: inout ResultFragments) {
        Notifications.write(event, form: form, at: at, action: submit.unsafelyUnwrapped.action, to: &writer) {
            results.write($0, to: &$1)
        }
    }

    /// Only the latest field result, and the latest `submitEnabled`, of a form matter; submission
    /// events are never dropped.
    var conflationKey: ConflationKey? {
        switch event {
        case .fieldChanged(let update): ConflationKey(form: form, topic: update.field)
        case .submitEnabledChanged: ConflationKey(form: form, topic: "")
        case .submissionChanged: nil
        }
    }
}
