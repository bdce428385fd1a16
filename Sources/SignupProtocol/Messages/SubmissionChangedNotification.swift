import SignupCore

/// `form.submissionChanged`: a submission's state, named by the form's action, with its result
/// (`account`, `friend` or `result`) on success, or `code`, `params` and `message` on failure.
package struct SubmissionChangedNotification: NotificationType {
    package static let method = "form.submissionChanged"

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

    /// It may carry what a backend answered (an account, a token).
    package var mayNameSecretMember: Bool { Self.mayNameSecretMember }
    package static var mayNameSecretMember: Bool { true }
}

extension SubmissionChangedNotification {
    package static let documentation = NotificationDocumentation(
        summary: "A submission's state changed.",
        params: [
            DocumentedParameter("form", required: true, .reference("FormId")),
            DocumentedParameter("state", required: true, .schema(##"{"type": "string"}"##)),
            DocumentedParameter("account", .schema(##"{"type": "object"}"##)),
            DocumentedParameter("friend", .schema(##"{"type": "object"}"##)),
            DocumentedParameter("result", .schema(##"{}"##)),
            DocumentedParameter("code", .schema(##"{"type": "string"}"##)),
            DocumentedParameter("params", .reference("MessageParams")),
            DocumentedParameter("message", .schema(##"{"type": "string"}"##)),
            DocumentedParameter("at", required: true, .reference("Time")),
        ],
        paramsComponent: "SubmissionChangedParams",
        components: [
            SchemaComponent("SubmissionChangedParams", ##"""
                {
                  "type": "object",
                  "properties": {
                    "form": {
                      "$ref": "#/components/schemas/FormId"
                    },
                    "state": {
                      "type": "string"
                    },
                    "account": {
                      "type": "object"
                    },
                    "friend": {
                      "type": "object"
                    },
                    "result": {
                      "description": "An http submission's result: the API's JSON body, members the form keeps secret masked."
                    },
                    "code": {
                      "type": "string"
                    },
                    "params": {
                      "$ref": "#/components/schemas/MessageParams"
                    },
                    "message": {
                      "type": "string"
                    },
                    "at": {
                      "$ref": "#/components/schemas/Time"
                    }
                  },
                  "required": [
                    "form",
                    "state",
                    "at"
                  ],
                  "additionalProperties": false
                }
                """##),
        ])
}
