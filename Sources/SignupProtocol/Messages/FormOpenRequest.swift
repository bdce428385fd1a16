import SignupCore

/// `form.open`: opens a form of a kind, with opening values or a record to update.
package struct FormOpenRequest: RequestType {
    package static let method = "form.open"
    package static var parameterRoles: [String: ParameterRole] {
        ["kind": .identifier, "form": .identifier, "values": .fieldValues(ofOpenForm: true), "record": .record,
         "locale": .identifier, "at": .number]
    }

    /// The kind; `signup` when none is named.
    package var kind: String
    /// The id asked for; the server chooses one when nil.
    package var form: String?
    /// Opening values by field name, in the order given. Secret fields' values are secrets.
    package var values: [(String, String)]
    /// A record to update: its `id` and its other members as opening values.
    package var record: [(String, String)]?
    package var locale: String?
    /// Whether to describe the form; nil leaves it to the client's capabilities.
    package var describe: Bool?
    package var at: Int64?

    package init(
        kind: String = "signup", form: String? = nil, values: [(String, String)] = [], record: [(String, String)]? = nil,
        locale: String? = nil, describe: Bool? = nil, at: Int64? = nil
    ) {
        self.kind = kind
        self.form = form
        self.values = values
        self.record = record
        self.locale = locale
        self.describe = describe
        self.at = at
    }

    package init(_ params: Params) throws(RPCError) {
        kind = try params.string("kind") ?? "signup"
        values = try params.stringMap("values") ?? []
        locale = try params.string("locale")
        describe = try params.bool("describe")
        record = try params.stringMap("record")
        form = try params.string("form")
        at = try params.count("at")
    }

    package struct Response: ResponseType {
        package var form: String
        package var kind: String
        package var version: Int
        package var recordID: String?
        package var locale: String
        /// The locale asked for when it is not served and `en` stands in.
        package var unsupportedLocale: String?
        /// The form's description, with the definition it describes.
        package var description: (FormDescription, FormDefinition)?

        package init(
            form: String, kind: String, version: Int, recordID: String?, locale: String, unsupportedLocale: String?,
            description: (FormDescription, FormDefinition)?
        ) {
            self.form = form
            self.kind = kind
            self.version = version
            self.recordID = recordID
            self.locale = locale
            self.unsupportedLocale = unsupportedLocale
            self.description = description
        }

        package func write(to result: inout JSONWriter) {
            result.object {
                $0.key("form"); $0.string(form)
                $0.key("kind"); $0.string(kind)
                $0.key("version"); $0.int(version)
                if let recordID {
                    $0.key("recordId"); $0.string(recordID)
                }
                $0.key("locale"); $0.string(locale)
                if let unsupportedLocale {
                    $0.key("unsupportedLocale"); $0.string(unsupportedLocale)
                }
                if let (description, definition) = description {
                    $0.key("description")
                    FormDescriptions.write(description, definition: definition, to: &$0)
                }
            }
        }
    }
}

extension FormOpenRequest {
    package static let documentation = MethodDocumentation(
        summary: "Open a form; its opening events come before the result.",
        params: [
            DocumentedParameter("kind", .schema(##"{"type": "string"}"##)),
            DocumentedParameter("form", .reference("FormId")),
            DocumentedParameter("values", .reference("StringMap")),
            DocumentedParameter("record", .reference("StringMap")),
            DocumentedParameter("locale", .reference("Locale")),
            DocumentedParameter("describe", .schema(##"{"type": "boolean"}"##)),
            DocumentedParameter("at", .reference("Time")),
        ],
        paramsComponent: "OpenParams",
        result: "OpenResult",
        errors: [.formIDInUse, .unknownFormKind, .unknownField, .valueTooLong, .tooManyForms, .invalidParams, .clockNotVirtual, .timeWentBackwards, .shuttingDown],
        components: [
            SchemaComponent("OpenParams", ##"""
                {
                  "type": "object",
                  "properties": {
                    "kind": {
                      "type": "string"
                    },
                    "form": {
                      "$ref": "#/components/schemas/FormId"
                    },
                    "values": {
                      "$ref": "#/components/schemas/StringMap"
                    },
                    "record": {
                      "$ref": "#/components/schemas/StringMap"
                    },
                    "locale": {
                      "$ref": "#/components/schemas/Locale"
                    },
                    "describe": {
                      "type": "boolean"
                    },
                    "at": {
                      "$ref": "#/components/schemas/Time"
                    }
                  },
                  "additionalProperties": false
                }
                """##),
            SchemaComponent("OpenResult", ##"""
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
                    "recordId": {
                      "type": "string"
                    },
                    "locale": {
                      "$ref": "#/components/schemas/Locale"
                    },
                    "unsupportedLocale": {
                      "type": "string"
                    },
                    "description": {
                      "$ref": "#/components/schemas/FormDescription"
                    }
                  },
                  "required": [
                    "form",
                    "kind",
                    "version",
                    "locale"
                  ],
                  "additionalProperties": false
                }
                """##),
        ])
}
