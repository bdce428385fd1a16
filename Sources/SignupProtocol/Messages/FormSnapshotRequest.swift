import SignupCore

/// `form.snapshot`: the whole of a form's visible state, for a view that attaches late.
package struct FormSnapshotRequest: FormAddressedRequest {
    package static let method = "form.snapshot"

    package var form: String?
    package var at: Int64?

    package init(form: String? = nil, at: Int64? = nil) {
        self.form = form
        self.at = at
    }

    package struct Response: ResponseType {
        package var form: String
        package var kind: String
        package var version: Int
        package var snapshot: FormSnapshot
        package var recordID: String?
        /// What the form submits, which names its submission's states.
        package var action: SubmitAction

        package init(form: String, kind: String, version: Int, snapshot: FormSnapshot, recordID: String?, action: SubmitAction) {
            self.form = form
            self.kind = kind
            self.version = version
            self.snapshot = snapshot
            self.recordID = recordID
            self.action = action
        }

        package func write(to result: inout JSONWriter) {
            result.object { body in
                body.key("form"); body.string(form)
                body.key("kind"); body.string(kind)
                body.key("version"); body.int(version)
                body.key("fields")
                body.array { fields in
                    for update in snapshot.fields {
                        fields.object {
                            $0.key("field"); $0.string(update.field)
                            Notifications.writeResult(update.result, to: &$0)
                            $0.key("version"); $0.int(update.version)
                        }
                    }
                }
                body.key("submitEnabled"); body.bool(snapshot.submitEnabled)
                if let recordID {
                    body.key("recordId"); body.string(recordID)
                }
                body.key("submission")
                body.object { Notifications.writeSubmission(snapshot.submission, of: action, to: &$0) }
            }
        }
    }
}

extension FormSnapshotRequest {
    package static let documentation = MethodDocumentation(
        summary: "The current state of a form, for a view that attaches late.",
        params: [
            DocumentedParameter("form", .reference("FormId")),
            DocumentedParameter("at", .reference("Time")),
        ],
        paramsComponent: "FormParams",
        result: "SnapshotResult",
        errors: [.unknownForm, .tooManyForms, .invalidParams, .clockNotVirtual, .timeWentBackwards, .shuttingDown],
        components: [
            SchemaComponent("FieldSnapshot", ##"""
                {
                  "type": "object",
                  "properties": {
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
                    }
                  },
                  "required": [
                    "field",
                    "state",
                    "code",
                    "params",
                    "message",
                    "version"
                  ],
                  "additionalProperties": false
                }
                """##),
            SchemaComponent("Submission", ##"""
                {
                  "description": "idle or submitting (nothing more), succeeded (with account, friend or result) or failed (code, params, message); login forms name them loggedOut, loggingIn, loggedIn, loginFailed.",
                  "type": "object",
                  "properties": {
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
                    }
                  },
                  "required": [
                    "state"
                  ],
                  "additionalProperties": false
                }
                """##),
            SchemaComponent("SnapshotResult", ##"""
                {
                  "type": "object",
                  "properties": {
                    "form": {
                      "$ref": "#/components/schemas/FormId"
                    },
                    "kind": {
                      "type": "string"
                    },
                    "version": {
                      "$ref": "#/components/schemas/Version"
                    },
                    "fields": {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/FieldSnapshot"
                      }
                    },
                    "submitEnabled": {
                      "type": "boolean"
                    },
                    "recordId": {
                      "type": "string"
                    },
                    "submission": {
                      "$ref": "#/components/schemas/Submission"
                    }
                  },
                  "required": [
                    "form",
                    "kind",
                    "version",
                    "fields",
                    "submitEnabled",
                    "submission"
                  ],
                  "additionalProperties": false
                }
                """##),
        ])
}
