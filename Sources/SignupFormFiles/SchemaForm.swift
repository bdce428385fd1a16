import SignupCore
import SignupProtocol
import SignupSchema

/// Reads a JSON Schema (draft 2020-12 or draft-07) as a form kind (protocol.md §17, "Forms from
/// schemas"): the object's properties are the fields, a nested object's properties fields named
/// by their JSON Pointer below the root (`traits/email`), and each keyword a field's live rules
/// can judge becomes a rule with a code of its own (`string.minLength`, …) and the keyword's value
/// as params. What the schema cannot say (the submit action, remote checks, normalisation,
/// translations, message texts) is said in SignupRPC's vocabulary, the `signupRPC` keyword, which
/// a backend's validator ignores as an unknown keyword.
package enum SchemaForm {
    /// The vocabulary's keyword, at the root and in a property's schema.
    package static let keyword = "signupRPC"

    /// Whether `document` is a JSON Schema rather than a form file: it names its `$schema`.
    package static func isSchema(_ document: JSON) -> Bool {
        document["$schema"] != nil
    }

    /// Whether `document` is an OpenAPI 3.1 document (`openapi: 3.1.x`).
    package static func isOpenAPI(_ document: JSON) -> Bool {
        document["openapi"]?.string?.hasPrefix("3.1") == true
    }

    /// OpenAPI's extension keyword at the document's root: the vocabulary's root members, and
    /// `schema`, a JSON Pointer to the request body's schema the form is made of.
    package static let openAPIKeyword = "x-signupRPC"

    /// The form kind `document` defines (a JSON Schema, or an OpenAPI 3.1 document pointing at a
    /// request body's schema); `file` names it in errors and, without `kind`, gives the kind its
    /// name (`signup.schema.json`: `signup`).
    package static func parse(_ document: JSON, file: String) throws(FormFile.Problem) -> FormDefinition {
        let reader = FormFile.Reader(file: file)
        guard isOpenAPI(document) else {
            let dialect = SchemaDialect.named(document["$schema"]?.string ?? "") ?? .draft2020_12
            return try parse(schema: document, pointer: "", in: document, dialect: dialect, vocabularyAt: (document[keyword], "$.\(keyword)"),
                             file: file, reader: reader)
        }
        // OpenAPI 3.1's Schema Objects are JSON Schema 2020-12 (or its `jsonSchemaDialect`).
        let extensionPath = "$.\(openAPIKeyword)"
        let members = try reader.members(document[openAPIKeyword] ?? .null, extensionPath,
                                         allowed: ["schema", "kind", "submit", "translations", "secondFactor"], required: ["schema"])
        let pointer = try reader.string(members["schema"], "\(extensionPath).schema")
        guard let tokens = JSONPointer.tokens(pointer.hasPrefix("#") ? String(pointer.dropFirst()) : pointer) else {
            throw reader.fail("\(extensionPath).schema", "must be a JSON Pointer into the document, such as /paths/~1signup/post/requestBody/content/application~1json/schema")
        }
        var schema = document
        for token in tokens {
            guard let next = schema.members?.first(where: { $0.key == token })?.value ?? schema.elements.flatMap({ elements in
                Int(token).flatMap { elements.indices.contains($0) ? elements[$0] : nil } }) else {
                throw reader.fail("\(extensionPath).schema", "names nothing in the document")
            }
            schema = next
        }
        schema = try resolved(schema, in: document, path: "\(extensionPath).schema", reader: reader)
        let dialect = document["jsonSchemaDialect"]?.string.flatMap(SchemaDialect.named) ?? .draft2020_12
        let vocabulary = JSON.object((document[openAPIKeyword]?.members ?? []).filter { $0.key != "schema" })
        return try parse(schema: schema, pointer: "/" + tokens.map(JSONPointer.escape).joined(separator: "/"), in: document, dialect: dialect,
                         vocabularyAt: (vocabulary, extensionPath), file: file, reader: reader)
    }

    /// The form `schema` makes, found at `pointer` in `document` (which its references resolve in).
    private static func parse(schema: JSON, pointer: String, in document: JSON, dialect: SchemaDialect, vocabularyAt vocabularyJSON: (JSON?, String),
                              file: String, reader: FormFile.Reader) throws(FormFile.Problem) -> FormDefinition {
        // The schema itself must be one: judged by its dialect's meta-schema, then compiled.
        let metaError: SchemaOutput.Unit?
        let compiled: SchemaValidator
        do throws(SchemaProblem) {
            // A schema written in SignupRPC's vocabulary is judged by its meta-schema, which also
            // checks the signupRPC keyword.
            let metaURI = schema["$schema"]?.string == SchemaRegistry.signupVocabularyURI ? SchemaRegistry.signupVocabularyURI
                : dialect.draft == .draft7 ? SchemaDialect.draft7URI + "#" : SchemaDialect.draft2020_12URI
            let meta = try SchemaValidator(.object([JSON.Member(key: "$ref", value: .string(metaURI))]), registry: .withMetaSchemas)
            metaError = try meta.validate(schema).errors.first
            var registry = SchemaRegistry.withMetaSchemas
            let uri = "urn:signup-rpc:form:" + file
            let root = try registry.add(document, at: uri, dialect: dialect)
            let located = pointer.isEmpty ? root : registry.resolve(root.base.resolving("#" + pointer))
                ?? SchemaRegistry.Located(node: schema, base: root.base, dialect: dialect)
            compiled = SchemaValidator(registry: registry, root: located)
        } catch {
            throw reader.fail("$", error.description)
        }
        if let metaError {
            let under = schema["$schema"]?.string == SchemaRegistry.signupVocabularyURI ? "SignupRPC's vocabulary"
                : dialect.draft == .draft7 ? "draft-07" : "draft 2020-12"
            throw reader.fail(Self.path(metaError.instanceLocation), "is not valid under \(under): \(metaError.error)")
        }
        guard case .string("object")? = schema["type"], schema["properties"]?.members != nil else {
            throw reader.fail("$", "a form's schema must be of type object, with properties")
        }
        let (vocabularyValue, vocabularyPath) = vocabularyJSON
        let vocabulary = try reader.members(vocabularyValue ?? .object([]), vocabularyPath,
                                            allowed: ["kind", "submit", "translations", "secondFactor", "assertFormats"])
        // `format` is an annotation unless the form asks; e-mail is always its rule (§13).
        let assertsFormats = try reader.bool(vocabulary["assertFormats"], "\(vocabularyPath).assertFormats", default: false)
        let kind = try vocabulary["kind"].map { json throws(FormFile.Problem) in try reader.string(json, "\(vocabularyPath).kind") }
            ?? Self.kind(fromFile: file)
        let title = schema["title"]?.string.map { Message("title", $0) }
        let isKratos = vocabulary["submit"] == nil && KratosIdentity.describes(schema)
        var fields: [FieldDefinition] = []
        var types: [String?] = []
        // A Kratos identity always has its traits, whatever the root's `required` says.
        try collectFields(of: schema, in: document, prefix: [], required: true, path: "$", into: &fields, types: &types,
                          assertsFormats: assertsFormats, reader: reader, alwaysRequired: isKratos ? ["traits"] : [])
        guard !fields.isEmpty else { throw reader.fail("$.properties", "holds no field") }
        // Fields that appear only in conditional branches, hidden until a branch applies.
        let conditions = try SchemaConditions(schema, base: compiled.root, registry: compiled.registry, reader: reader)
        for (name, branchSchema) in conditions.branchOnly {
            let path = "$.(branch).properties.\(name)"
            let property = try resolved(branchSchema, in: document, path: path, reader: reader)
            fields.append(try field(JSONPointer.escape(name), property, isRequired: false, path: path, assertsFormats: assertsFormats, reader: reader))
            types.append(property["type"]?.string)
        }
        let submit: SubmitAction
        // Fields past these (a Kratos schema's password) are not the schema's: not in its object.
        let schemaFields = fields.count
        if isKratos {
            (fields, submit) = try KratosIdentity.adapt(fields, document: schema, reader: reader)
            // The added password is a string.
            types += Array(repeating: "string", count: fields.count - types.count)
        } else {
            guard let submitJSON = vocabulary["submit"] else {
                throw reader.fail("\(vocabularyPath).submit", "is required: the action a submission takes")
            }
            submit = try reader.submit(submitJSON, "\(vocabularyPath).submit")
        }
        let translations = try reader.translations(vocabulary["translations"], "\(vocabularyPath).translations")
        let hasSecondFactor = try reader.bool(vocabulary["secondFactor"], "\(vocabularyPath).secondFactor", default: false)
        do throws(FormDefinitionError) {
            var definition = try FormDefinition(kind: kind, title: title, fields: fields, submit: submit, translations: translations,
                                                hasSecondFactor: hasSecondFactor)
            if !conditions.isEmpty { definition.conditions = conditions.formConditions(fields: fields, types: types) }
            var whole = compiled
            whole.assertsFormats = assertsFormats
            definition.documentCheck = documentCheck(whole, names: fields.prefix(schemaFields).map(\.name), types: types)
            return definition
        } catch {
            throw reader.fail("$", error.description)
        }
    }

    /// `document` with its kind written in as `signupRPC.kind` (for a recording, which keeps the
    /// document but not the name of its file).
    static func naming(_ document: JSON, kind: String) -> JSON {
        guard case .object(var members) = document else { return document }
        let name = isOpenAPI(document) ? openAPIKeyword : keyword
        var vocabulary = members.first { $0.key == name }?.value.members ?? []
        vocabulary.removeAll { $0.key == "kind" }
        vocabulary.insert(JSON.Member(key: "kind", value: .string(kind)), at: 0)
        members.removeAll { $0.key == name }
        members.append(JSON.Member(key: name, value: .object(vocabulary)))
        return .object(members)
    }

    /// The schema's verdict on the object the shown fields' values make, at a tap: each error
    /// about a field (by its instance location) is an issue on it, coded `schema.` and the
    /// keyword, with the validator's words; any other error is an issue about the whole.
    static func documentCheck(_ validator: SchemaValidator, names: [String], types: [String?]) -> DocumentCheck {
        DocumentCheck { values, shown in
            let document = SchemaConditions.document(names: names, types: types, values: names.indices.map { shown[$0] ? values[$0] : "" })
            let output: SchemaOutput
            do throws(SchemaProblem) {
                // A message's pattern budget (§10), as a keystroke's: the tap is one line.
                output = try validator.validate(document, budget: MatchBudget())
            } catch {
                return [ReportedIssue(field: nil, code: "schema.tooCostly", message: "The form could not be checked as a whole; try again")]
            }
            return output.errors.map { unit in
                let field = String(unit.instanceLocation.dropFirst())
                // An assertion's value is the issue's param, by the keyword's name (`{"pattern": "^\\+1"}`);
                // an applicator's (a subschema) is not.
                let isPlain: Bool = switch unit.value {
                case .string, .number, .bool: true
                case .array(let elements): elements.allSatisfy { if case .object = $0 { false } else if case .array = $0 { false } else { true } }
                default: false
                }
                let params: [String: JSONValue] = unit.keyword == "false" || !isPlain ? [:] : [unit.keyword: BackendExchangeJSON.value(unit.value)]
                return ReportedIssue(field: names.contains(field) ? field : nil, code: "schema." + unit.keyword, message: unit.error, params: params)
            }
        }
    }

    /// `signup.schema.json` and `signup.json` name the kind `signup`.
    static func kind(fromFile file: String) -> String {
        var name = Substring(file.split(separator: "/").last ?? Substring(file))
        for suffix in [".schema.json", ".openapi.json", ".json"] where name.hasSuffix(suffix) {
            name = name.dropLast(suffix.count)
            break
        }
        return String(name)
    }

    /// `/traits/email` as a JSON path for errors: `$.traits.email`.
    static func path(_ pointer: String) -> String {
        "$" + (JSONPointer.tokens(pointer) ?? []).map { "." + $0 }.joined()
    }
}
