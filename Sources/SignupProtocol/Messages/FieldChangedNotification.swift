import SignupCore

/// `form.fieldChanged`: a field's result changed, stamped with the version of the edit it judges.
package struct FieldChangedNotification: NotificationType {
    package static let method = "form.fieldChanged"

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

    package var mayNameSecretMember: Bool { Self.mayNameSecretMember(update.result) }

    /// Only its result's params are named by others (a remote check's answer) than this type.
    package static func mayNameSecretMember(_ result: FieldResult) -> Bool {
        SecretRedaction.holdSecretMember(result.params)
    }
}

extension FieldChangedNotification {
    package static let documentation = NotificationDocumentation(
        summary: "A field's result changed.",
        params: [
            DocumentedParameter("form", required: true, .reference("FormId")),
            DocumentedParameter("field", required: true, .schema(##"{"type": "string"}"##)),
            DocumentedParameter("state", required: true, .reference("FieldState")),
            DocumentedParameter("code", required: true, .schema(##"{"type": "string"}"##)),
            DocumentedParameter("params", required: true, .reference("MessageParams")),
            DocumentedParameter("message", required: true, .schema(##"{"type": "string"}"##)),
            DocumentedParameter("version", required: true, .reference("Version")),
            DocumentedParameter("at", required: true, .reference("Time")),
        ],
        paramsComponent: "FieldChangedParams",
        components: [
            SchemaComponent("FieldChangedParams", ##"""
                {
                  "type": "object",
                  "properties": {
                    "form": {
                      "$ref": "#/components/schemas/FormId"
                    },
                    "field": {
                      "type": "string"
                    },
                    "state": {
                      "$ref": "#/components/schemas/FieldState"
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
                    "version": {
                      "$ref": "#/components/schemas/Version"
                    },
                    "at": {
                      "$ref": "#/components/schemas/Time"
                    }
                  },
                  "required": [
                    "form",
                    "field",
                    "state",
                    "code",
                    "params",
                    "message",
                    "version",
                    "at"
                  ],
                  "additionalProperties": false
                }
                """##),
        ])
}
