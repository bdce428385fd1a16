import SignupCore

/// `form.submit`: the submit tap; accepted or refused at once, its progress sent as events.
package struct FormSubmitRequest: FormAddressedRequest {
    package static let method = "form.submit"

    package var form: String?
    package var at: Int64?

    package init(form: String? = nil, at: Int64? = nil) {
        self.form = form
        self.at = at
    }

    package struct Response: ResponseType {
        package var form: String
        /// Why the tap was refused; nil when it was accepted.
        package var rejection: SubmitRejection?

        package init(form: String, rejection: SubmitRejection?) {
            self.form = form
            self.rejection = rejection
        }

        package func write(to result: inout JSONWriter) {
            result.object {
                $0.key("form"); $0.string(form)
                $0.key("accepted"); $0.bool(rejection == nil)
                if let rejection {
                    $0.key("reason"); $0.string(rejection.rawValue)
                }
            }
        }
    }
}

extension FormSubmitRequest {
    package static let documentation = MethodDocumentation(
        summary: "Tap submit.",
        params: [
            DocumentedParameter("form", .reference("FormId")),
            DocumentedParameter("at", .reference("Time")),
        ],
        paramsComponent: "FormParams",
        result: "SubmitResult",
        errors: [.unknownForm, .tooManyForms, .invalidParams, .clockNotVirtual, .timeWentBackwards, .shuttingDown],
        components: [
            SchemaComponent("SubmitResult", ##"""
                {
                  "type": "object",
                  "properties": {
                    "form": {
                      "$ref": "#/components/schemas/FormId"
                    },
                    "accepted": {
                      "type": "boolean"
                    },
                    "reason": {
                      "enum": [
                        "invalid",
                        "validating",
                        "submitting",
                        "submitted"
                      ]
                    }
                  },
                  "required": [
                    "form",
                    "accepted"
                  ],
                  "additionalProperties": false
                }
                """##),
        ])
}
