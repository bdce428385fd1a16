import SignupCore

/// `form.fieldChanged`: a field's result changed, stamped with the version of the edit it judges.
package struct FieldChangedNotification: NotificationType {
    package static let method = "form.fieldChanged"
    package static let members = ["form", "field", "state", "code", "params", "message", "version", "at"]

    package var form: String
    package var update: FieldUpdate
    package var at: Int64

    package init(form: String, update: FieldUpdate, at: Int64) {
        self.form = form
        self.update = update
        self.at = at
    }

    package func write(to writer: inout JSONWriter) {
        Notifications.writeFieldChangedStart(form: form, to: &writer)
        Notifications.writeFieldMembers(update.field, update.result, to: &writer)
        Notifications.writeVersion(update.version, to: &writer)
        Notifications.writeEnd(at: at, to: &writer)
    }
}
