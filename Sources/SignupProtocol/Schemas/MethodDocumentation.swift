/// What the protocol's documents say of a method, declared in its type's file: `SchemaDocuments`
/// writes the OpenRPC document and `messages.schema.json` from these, and a method takes the
/// params its documentation names, so the code and the documents cannot drift apart.
package struct MethodDocumentation: Sendable {
    package var summary: String
    /// Its params, in the order protocol.md lists them: the names a request may use.
    package var params: [DocumentedParameter]
    /// The component the whole params object is, in `messages.schema.json`; nil for a method
    /// that takes none (its params null, `[]` or `{}`).
    package var paramsComponent: String?
    /// The component its result is.
    package var result: String
    package var errors: [DocumentedError]
    /// The components only this method uses.
    package var components: [SchemaComponent]

    package init(summary: String, params: [DocumentedParameter], paramsComponent: String?, result: String,
                 errors: [DocumentedError], components: [SchemaComponent] = []) {
        self.summary = summary
        self.params = params
        self.paramsComponent = paramsComponent
        self.result = result
        self.errors = errors
        self.components = components
    }
}

/// What the documents say of a notification the server sends.
package struct NotificationDocumentation: Sendable {
    package var summary: String
    /// Its members, in the order the server writes them.
    package var params: [DocumentedParameter]
    /// The component its params object is.
    package var paramsComponent: String
    /// The components only this notification uses.
    package var components: [SchemaComponent]

    package init(summary: String, params: [DocumentedParameter], paramsComponent: String, components: [SchemaComponent] = []) {
        self.summary = summary
        self.params = params
        self.paramsComponent = paramsComponent
        self.components = components
    }
}

/// A param by name, as the OpenRPC document lists it.
package struct DocumentedParameter: Sendable {
    package var name: String
    package var isRequired: Bool
    package var schema: JSON

    package init(_ name: String, required: Bool = false, _ schema: JSON) {
        self.name = name
        self.isRequired = required
        self.schema = schema
    }
}

/// A named schema of the OpenRPC document's `components`.
package struct SchemaComponent: Sendable {
    package var name: String
    package var schema: JSON

    /// `text` is the schema as JSON.
    package init(_ name: String, _ text: String) {
        self.name = name
        self.schema = .schema(text)
    }
}

extension JSON {
    /// `{"$ref": "#/components/schemas/NAME"}`: a component of the OpenRPC document.
    package static func reference(_ component: String) -> JSON {
        .object([Member(key: "$ref", value: .string("#/components/schemas/" + component))])
    }

    /// A schema written in the source as JSON text. The texts are the program's own, and every one
    /// is read whenever the documents are written (`SchemaDocumentsTests`): one that is not JSON
    /// is a mistake in the source, stopped here.
    package static func schema(_ text: String) -> JSON {
        do {
            return try JSONParser.parse(Array(text.utf8))
        } catch {
            preconditionFailure("a schema in the source is not JSON (\(error)): \(text)")
        }
    }
}
