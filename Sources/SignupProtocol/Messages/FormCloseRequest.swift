/// `form.close`: closes a form, cancelling its pending checks; no event of it follows.
package struct FormCloseRequest: FormAddressedRequest {
    package static let method = "form.close"

    package var form: String?
    package var at: Int64?

    package init(form: String? = nil, at: Int64? = nil) {
        self.form = form
        self.at = at
    }

    package struct Response: ResponseType {
        package var form: String

        package init(form: String) {
            self.form = form
        }

        package func write(to result: inout JSONWriter) {
            result.object { $0.key("form"); $0.string(form) }
        }
    }
}

extension FormCloseRequest {
    package static let documentation = MethodDocumentation(
        summary: "Close a form; it sends nothing more.",
        params: [
            DocumentedParameter("form", .reference("FormId")),
            DocumentedParameter("at", .reference("Time")),
        ],
        paramsComponent: "FormParams",
        result: "CloseResult",
        errors: [.unknownForm, .invalidParams, .clockNotVirtual, .timeWentBackwards, .shuttingDown],
        components: [
            SchemaComponent("CloseResult", ##"""
                {
                  "type": "object",
                  "properties": {
                    "form": {
                      "$ref": "#/components/schemas/FormId"
                    }
                  },
                  "required": [
                    "form"
                  ],
                  "additionalProperties": false
                }
                """##),
        ])
}
