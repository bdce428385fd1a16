import SignupCore

/// `form.fieldPresenceChanged`: the form's conditions showed or hid a field, or made it required
/// or optional.
package struct FieldPresenceChangedNotification: NotificationType {
    package static let method = "form.fieldPresenceChanged"
    package static let members = ["form", "field", "shown", "required", "at"]

    package var form: String
    package var update: PresenceUpdate
    package var at: Int64

    package init(form: String, update: PresenceUpdate, at: Int64) {
        self.form = form
        self.update = update
        self.at = at
    }

    package func write(to writer: inout JSONWriter) {
        writer.verbatim(#"{"jsonrpc":"2.0","method":"form.fieldPresenceChanged","params":{"form":"#)
        writer.string(form)
        writer.verbatim(#","field":"#)
        writer.string(update.field)
        writer.verbatim(update.presence.shown ? #","shown":true"# : #","shown":false"#)
        writer.verbatim(update.presence.required ? #","required":true"# : #","required":false"#)
        Notifications.writeEnd(at: at, to: &writer)
    }
}
