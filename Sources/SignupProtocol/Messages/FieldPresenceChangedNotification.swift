import SignupCore

/// `form.fieldPresenceChanged`: the form's conditions showed or hid a field, or made it required
/// or optional.
package struct FieldPresenceChangedNotification: NotificationType {
    package static let method = "form.fieldPresenceChanged"

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

    /// Every member's name is its own.
    package var mayNameSecretMember: Bool { Self.mayNameSecretMember }
    package static var mayNameSecretMember: Bool { false }
}

extension FieldPresenceChangedNotification {
    package static let documentation = NotificationDocumentation(
        summary: "A field shown or hidden, made required or optional, by the form's conditions (a JSON Schema form's if/then/else, dependentRequired, dependentSchemas, oneOf); each conditional field's first comes when the form opens.",
        params: [
            DocumentedParameter("form", required: true, .reference("FormId")),
            DocumentedParameter("field", required: true, .schema(##"{"type": "string"}"##)),
            DocumentedParameter("shown", required: true, .schema(##"{"type": "boolean"}"##)),
            DocumentedParameter("required", required: true, .schema(##"{"type": "boolean"}"##)),
            DocumentedParameter("at", required: true, .reference("Time")),
        ],
        paramsComponent: "FieldPresenceChangedParams",
        components: [
            SchemaComponent("FieldPresenceChangedParams", ##"""
                {
                  "type": "object",
                  "properties": {
                    "form": {
                      "$ref": "#/components/schemas/FormId"
                    },
                    "field": {
                      "type": "string"
                    },
                    "shown": {
                      "type": "boolean"
                    },
                    "required": {
                      "type": "boolean"
                    },
                    "at": {
                      "$ref": "#/components/schemas/Time"
                    }
                  },
                  "required": [
                    "form",
                    "field",
                    "shown",
                    "required",
                    "at"
                  ],
                  "additionalProperties": false
                }
                """##),
        ])
}
