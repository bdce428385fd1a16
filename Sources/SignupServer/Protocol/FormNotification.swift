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
    /// The clock's time when the event happened, in milliseconds.
    let at: Int64
    private let content: Content
    /// Kept for submission events only, the one kind that names the action's states. Any other
    /// notification holds no object of its form's: the loop would retain it and the writer
    /// release it on every notification, each an atomic operation on a line the other core
    /// had just written.
    private let submit: Submit?

    private enum Content: Sendable {
        case event(FormEvent)
        /// A field's change, its name and result encoded in an entry of the `EncodedFieldResults`
        /// that made it, which outlives the notification: it holds no object, so neither thread
        /// counts one.
        case encodedField(Unmanaged<EncodedFieldResult>, version: Int)
    }

    init(form: String, event: FormEvent, at: Int64, submit: Submit) {
        self.form = form
        self.at = at
        if case .submissionChanged = event { self.submit = submit } else { self.submit = nil }
        content = .event(event)
    }

    /// A field's change whose name and result are `entry`, which its caller keeps until the
    /// notification has been written.
    init(form: String, fieldResult entry: Unmanaged<EncodedFieldResult>, version: Int, at: Int64) {
        self.form = form
        self.at = at
        content = .encodedField(entry, version: version)
        submit = nil
    }

    func write(to writer: inout JSONWriter) {
        switch content {
        case .event(let event):
            Notifications.write(event, form: form, at: at, action: submit.unsafelyUnwrapped.action, to: &writer)
        case .encodedField(let entry, let version):
            entry._withUnsafeGuaranteedRef { entry in
                Notifications.writeFieldChanged(form: form, members: entry.members, version: version, at: at, to: &writer)
            }
        }
    }

    /// Only the latest field result, and the latest `submitEnabled`, of a form matter; submission
    /// events are never dropped.
    var conflationKey: ConflationKey? {
        switch content {
        case .event(.fieldChanged(let update)): ConflationKey(form: form, topic: update.field)
        case .event(.submitEnabledChanged): ConflationKey(form: form, topic: "")
        case .event(.submissionChanged): nil
        case .encodedField(let entry, _): ConflationKey(form: form, topic: entry._withUnsafeGuaranteedRef(\.field))
        }
    }
}
