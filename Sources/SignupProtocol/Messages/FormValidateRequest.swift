import SignupCore

/// `form.validate`: a whole set of values judged by a kind's local rules in one request, with the
/// codes, params and messages a form opened with them shows; no form is opened, no backend asked.
package struct FormValidateRequest: RequestType {
    package static let method = "form.validate"
    /// No form is open for it: the kind alone says which fields are secret.
    package static var parameterRoles: [String: ParameterRole] {
        ["kind": .identifier, "values": .fieldValues(ofOpenForm: false), "locale": .identifier, "at": .number]
    }

    package var kind: String
    /// Values by field name, in the order given. Secret fields' values are secrets.
    package var values: [(String, String)]
    package var locale: String?
    package var at: Int64?

    package init(kind: String = "signup", values: [(String, String)] = [], locale: String? = nil, at: Int64? = nil) {
        self.kind = kind
        self.values = values
        self.locale = locale
        self.at = at
    }

    package init(_ params: Params) throws(RPCError) {
        kind = try params.string("kind") ?? "signup"
        values = try params.stringMap("values") ?? []
        locale = try params.string("locale")
        at = try params.count("at")
    }

    package struct Response: ResponseType {
        package var kind: String
        package var locale: String
        package var unsupportedLocale: String?
        /// The kind's fields, in order, and their verdicts.
        package var fields: [FieldDefinition]
        package var verdicts: LocalizedForm.Verdicts

        package init(kind: String, locale: String, unsupportedLocale: String?, fields: [FieldDefinition], verdicts: LocalizedForm.Verdicts) {
            self.kind = kind
            self.locale = locale
            self.unsupportedLocale = unsupportedLocale
            self.fields = fields
            self.verdicts = verdicts
        }

        package func write(to result: inout JSONWriter) {
            result.object { body in
                body.key("kind"); body.string(kind)
                body.key("locale"); body.string(locale)
                if let unsupportedLocale {
                    body.key("unsupportedLocale"); body.string(unsupportedLocale)
                }
                body.key("valid"); body.bool(verdicts.isValid)
                body.key("fields")
                body.array { list in
                    for (index, field) in fields.enumerated() {
                        list.object {
                            $0.key("field"); $0.string(field.name)
                            Notifications.writeResult(verdicts.fields[index], to: &$0)
                            // Only a field the form's conditions hide says so.
                            if !verdicts.shown[index] {
                                $0.key("shown"); $0.bool(false)
                            }
                        }
                    }
                }
                // Only when the whole object fails something no field shows.
                if !verdicts.issues.isEmpty {
                    body.key("issues")
                    body.array { issues in
                        for issue in verdicts.issues {
                            issues.object {
                                $0.key("code"); $0.string(issue.code)
                                $0.key("params"); $0.value(.object(issue.params))
                                $0.key("message"); $0.string(issue.message)
                            }
                        }
                    }
                }
            }
        }
    }
}

extension FormValidateRequest {
    package static let documentation = MethodDocumentation(
        summary: "A whole set of values judged by a kind's local rules, with the codes a live form gives; no form is opened, no backend asked.",
        params: [
            DocumentedParameter("kind", .schema(##"{"type": "string"}"##)),
            DocumentedParameter("values", .reference("StringMap")),
            DocumentedParameter("locale", .reference("Locale")),
            DocumentedParameter("at", .reference("Time")),
        ],
        paramsComponent: "ValidateParams",
        result: "ValidateResult",
        errors: [.unknownFormKind, .unknownField, .valueTooLong, .invalidParams, .clockNotVirtual, .timeWentBackwards, .shuttingDown],
        components: [
            SchemaComponent("ValidateParams", ##"""
                {
                  "type": "object",
                  "properties": {
                    "kind": {
                      "type": "string"
                    },
                    "values": {
                      "$ref": "#/components/schemas/StringMap"
                    },
                    "locale": {
                      "$ref": "#/components/schemas/Locale"
                    },
                    "at": {
                      "$ref": "#/components/schemas/Time"
                    }
                  },
                  "additionalProperties": false
                }
                """##),
            SchemaComponent("ValidateResult", ##"""
                {
                  "type": "object",
                  "properties": {
                    "kind": {
                      "type": "string"
                    },
                    "locale": {
                      "$ref": "#/components/schemas/Locale"
                    },
                    "unsupportedLocale": {
                      "type": "string"
                    },
                    "valid": {
                      "type": "boolean"
                    },
                    "fields": {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/FieldVerdict"
                      }
                    },
                    "issues": {
                      "type": "array",
                      "description": "Only when the whole object fails what no field shows (a JSON Schema form's verdict on the object, protocol.md §17).",
                      "items": {
                        "type": "object",
                        "properties": {
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
                          "code",
                          "params",
                          "message"
                        ],
                        "additionalProperties": false
                      }
                    }
                  },
                  "required": [
                    "kind",
                    "locale",
                    "valid",
                    "fields"
                  ],
                  "additionalProperties": false
                }
                """##),
            SchemaComponent("FieldVerdict", ##"""
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
                    "shown": {
                      "const": false,
                      "description": "Only on a field the form's conditions hide: it is not judged and would not be submitted."
                    }
                  },
                  "required": [
                    "field",
                    "state",
                    "code",
                    "params",
                    "message"
                  ],
                  "additionalProperties": false
                }
                """##),
        ])
}
