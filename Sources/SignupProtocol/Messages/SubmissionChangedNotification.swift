import SignupCore

/// `form.submissionChanged`: a submission's state, named by the form's action, with its result
/// (`account`, `friend` or `result`) on success, or `code`, `params` and `message` on failure.
package struct SubmissionChangedNotification: NotificationType {
    package static let method = "form.submissionChanged"
    package static let members = ["form", "state", "account", "friend", "result", "code", "params", "message", "at"]

    package var form: String
    package var state: SubmissionState
    /// What the form submits, which names the states and the result.
    package var action: SubmitAction
    package var at: Int64

    package init(form: String, state: SubmissionState, action: SubmitAction, at: Int64) {
        self.form = form
        self.state = state
        self.action = action
        self.at = at
    }

    package func write(to writer: inout JSONWriter) {
        writer.verbatim(#"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"#)
        writer.string(form)
        writer.verbatim(",")
        Notifications.writeSubmission(state, of: action, to: &writer)
        Notifications.writeEnd(at: at, to: &writer)
    }
}
