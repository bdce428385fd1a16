import SignupCore

/// A form's event as a notification still to be encoded, so that a sink may encode it later and
/// on another thread (the writer's, with the virtual clock) rather than on the event loop.
package struct FormNotification: Sendable {
    /// What a form submits, shared by all of that form's notifications.
    package final class Submit: Sendable {
        package let action: SubmitAction

        package init(_ action: SubmitAction) {
            self.action = action
        }
    }

    package let form: String
    /// The clock's time when the event happened, in milliseconds.
    package let at: Int64
    package let content: Content

    package enum Content: Sendable {
        /// A field's change or `submitEnabled`, which never name the form's action.
        case event(FormEvent)
        /// A submission's change, which names the action's states.
        case submission(FormEvent, Submit)
        /// A field's change, its name and result encoded once, under this number in the
        /// writer's `EncodedFieldTable`. Only deferred to a queue that never conflates.
        case encodedField(number: Int, version: Int)
    }

    package init(form: String, event: FormEvent, at: Int64, submit: Submit) {
        self.form = form
        self.at = at
        if case .submissionChanged = event { content = .submission(event, submit) } else { content = .event(event) }
    }

    /// A field's change whose name and result are result `number` of the writer's table.
    package init(form: String, fieldResult number: Int, version: Int, at: Int64) {
        self.form = form
        self.at = at
        content = .encodedField(number: number, version: version)
    }

    /// Encodes the notification; `fields` holds the field results it may name by number.
    package func write(to writer: inout JSONWriter, fields: EncodedFieldTable.Snapshot? = nil) {
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

    /// Whether the notification, as `write` encodes it, may name a secret member
    /// (`NotificationType.mayNameSecretMember`): an account's token in a submission's event.
    package func mayNameSecretMember(fields: EncodedFieldTable.Snapshot) -> Bool {
        switch content {
        case .event(let event), .submission(let event, _): Notifications.mayNameSecretMember(event)
        case .encodedField(let number, _): fields.mayNameSecretMember(number)
        }
    }

    /// Asked for by a submission's event only, which carries its action.
    private static func noAction() -> SubmitAction {
        preconditionFailure("only a submission's event names its action")
    }
}
