/// `form.submitEnabledChanged`: whether submit is enabled changed.
package struct SubmitEnabledChangedNotification: NotificationType {
    package static let method = "form.submitEnabledChanged"

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

    /// Every member's name is its own.
    package var mayNameSecretMember: Bool { Self.mayNameSecretMember }
    package static var mayNameSecretMember: Bool { false }
}

extension SubmitEnabledChangedNotification {
    package static let documentation = NotificationDocumentation(
        summary: "Whether submit is enabled changed; the first comes when the form opens.",
        params: [
            DocumentedParameter("form", required: true, .reference("FormId")),
            DocumentedParameter("enabled", required: true, .schema(##"{"type": "boolean"}"##)),
            DocumentedParameter("at", required: true, .reference("Time")),
        ],
        paramsComponent: "SubmitEnabledChangedParams",
        components: [
            SchemaComponent("SubmitEnabledChangedParams", ##"""
                {
                  "type": "object",
                  "properties": {
                    "form": {
                      "$ref": "#/components/schemas/FormId"
                    },
                    "enabled": {
                      "type": "boolean"
                    },
                    "at": {
                      "$ref": "#/components/schemas/Time"
                    }
                  },
                  "required": [
                    "form",
                    "enabled",
                    "at"
                  ],
                  "additionalProperties": false
                }
                """##),
        ])
}
