/// `form.submitEnabledChanged`: whether submit is enabled changed.
package struct SubmitEnabledChangedNotification: NotificationType {
    package static let method = "form.submitEnabledChanged"
    package static let members = ["form", "enabled", "at"]

    package var form: String
    package var enabled: Bool
    package var at: Int64

    package init(form: String, enabled: Bool, at: Int64) {
        self.form = form
        self.enabled = enabled
        self.at = at
    }

    package func write(to writer: inout JSONWriter) {
        writer.verbatim(#"{"jsonrpc":"2.0","method":"form.submitEnabledChanged","params":{"form":"#)
        writer.string(form)
        writer.verbatim(enabled ? #","enabled":true"# : #","enabled":false"#)
        Notifications.writeEnd(at: at, to: &writer)
    }
}
