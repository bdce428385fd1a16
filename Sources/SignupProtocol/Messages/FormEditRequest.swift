/// `form.edit`: a field's new value, the message a client sends on every keystroke. A line of
/// the plain shape is read straight into this type (`FormEditLine`), any other through `Params`:
/// the server meets both as this one value.
package struct FormEditRequest: RequestType, Sendable {
    package static let method = "form.edit"
    package static var parameterRoles: [String: ParameterRole] {
        ["form": .identifier, "field": .identifier, "value": .fieldValue, "at": .number]
    }

    /// The form addressed; the default form when nil.
    package let form: String?
    /// `form`'s hash for the form table, computed where the request is read (for a plain line, on
    /// the reading thread, not on the loop).
    package let formHash: UInt64?
    package let field: String
    /// The field's value: a secret when the field is secret.
    package let value: String
    package let at: Int64?

    package init(form: String?, field: String, value: String, at: Int64?) {
        self.form = form
        formHash = form.map(FormIDHash.process)
        self.field = field
        self.value = value
        self.at = at
    }

    package init(_ params: Params) throws(RPCError) {
        let field = try params.requiredString("field")
        let value = try params.requiredString("value")
        self.init(form: try params.string("form"), field: field, value: value, at: try params.count("at"))
    }

    package struct Response: ResponseType, Sendable {
        package let form: String
        /// The form's version after the edit.
        package let version: Int

        package init(form: String, version: Int) {
            self.form = form
            self.version = version
        }

        package func write(to result: inout JSONWriter) {
            result.object {
                $0.key("form"); $0.string(form)
                $0.key("version"); $0.int(version)
            }
        }
    }
}

extension FormEditRequest {
    package static let documentation = MethodDocumentation(
        summary: "Set a field's whole value.",
        params: [
            DocumentedParameter("form", .reference("FormId")),
            DocumentedParameter("field", required: true, .schema(##"{"type": "string"}"##)),
            DocumentedParameter("value", required: true, .schema(##"{"type": "string"}"##)),
            DocumentedParameter("at", .reference("Time")),
        ],
        paramsComponent: "EditParams",
        result: "EditResult",
        errors: [.unknownForm, .unknownField, .valueTooLong, .tooManyForms, .invalidParams, .clockNotVirtual, .timeWentBackwards, .shuttingDown],
        components: [
            SchemaComponent("EditParams", ##"""
                {
                  "type": "object",
                  "properties": {
                    "form": {
                      "$ref": "#/components/schemas/FormId"
                    },
                    "field": {
                      "type": "string"
                    },
                    "value": {
                      "type": "string"
                    },
                    "at": {
                      "$ref": "#/components/schemas/Time"
                    }
                  },
                  "required": [
                    "field",
                    "value"
                  ],
                  "additionalProperties": false
                }
                """##),
            SchemaComponent("EditResult", ##"""
                {
                  "type": "object",
                  "properties": {
                    "form": {
                      "$ref": "#/components/schemas/FormId"
                    },
                    "version": {
                      "$ref": "#/components/schemas/Version"
                    }
                  },
                  "required": [
                    "form",
                    "version"
                  ],
                  "additionalProperties": false
                }
                """##),
        ])
}
