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

    private enum Content: Sendable {
        /// A field's change or `submitEnabled`, which never name the form's action.
        case event(FormEvent)
        /// A submission's change, which names the action's states.
        case submission(FormEvent, Submit)
        /// A field's change, its name and result encoded once, under this number in the
        /// writer's `EncodedFieldTable`. Only deferred to a queue that never conflates.
        case encodedField(number: Int, version: Int)
    }

    init(form: String, event: FormEvent, at: Int64, submit: Submit) {
        self.form = form
        self.at = at
        if case .submissionChanged = event { content = .submission(event, submit) } else { content = .event(event) }
    }

    /// A field's change whose name and result are result `number` of the writer's table.
    init(form: String, fieldResult number: Int, version: Int, at: Int64) {
        self.form = form
        self.at = at
        content = .encodedField(number: number, version: version)
    }

    /// Encodes the notification; `fields` holds the field results it may name by number.
    func write(to writer: inout JSONWriter, fields: EncodedFieldTable.Snapshot? = nil) {
        switch content {
        case .event(let event):
            Notifications.write(event, form: form, at: at, action: Self.noAction(), to: &writer)
        case .submission(let event, let submit):
            Notifications.write(event, form: form, at: at, action: submit.action, to: &writer)
        case .encodedField(let number, let version):
            guard let fields else { preconditionFailure("a field result by number is written with its table") }
            fields.withMembers(number) { members in
                Notifications.writeFieldChanged(form: form, members: members, version: version, at: at, to: &writer)
            }
        }
    }

    /// Asked for by a submission's event only, which carries its action.
    private static func noAction() -> SubmitAction {
        preconditionFailure("only a submission's event names its action")
    }

    /// Only the latest field result, and the latest `submitEnabled`, of a form matter; submission
    /// events are never dropped.
    var conflationKey: ConflationKey? {
        switch content {
        case .event(.fieldChanged(let update)): ConflationKey(form: form, topic: update.field)
        case .event(.submitEnabledChanged): ConflationKey(form: form, topic: "")
        case .event(.submissionChanged), .submission: nil
        // Deferred to a queue that never conflates, so never asked.
        case .encodedField: nil
        }
    }
}
