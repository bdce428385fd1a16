/// The protocol's two documents, written from the message types registered in `Messages`: the
/// OpenRPC document (`schemas/signup-rpc.openrpc.json`: each method, its params, result and
/// errors, and the components) and `schemas/messages.schema.json` (every message on the wire
/// whole). `signup-rpc schemas` writes them; `SchemaDocumentsTests` holds the files to them.
package enum SchemaDocuments {
    /// Each document's file name and text, as `schemas/` holds it.
    package static var files: [(name: String, text: String)] {
        [("signup-rpc.openrpc.json", openRPC.indentedText + "\n"), ("messages.schema.json", messages.indentedText + "\n")]
    }

    package static var openRPC: JSON {
        let methods = Messages.requests.map { method($0.method, $0.documentation) }
            + Messages.notifications.map { notification($0.method, $0.documentation) }
        let components = sharedComponents
            + Messages.requests.flatMap { $0.documentation.components }
            + Messages.notifications.flatMap { $0.documentation.components }
        return object([
            "openrpc": .string("1.3.2"),
            "info": .schema(##"""
                {"title": "SignupRPC", "version": "1.0", "description": "A headless form-validation engine spoken over JSON-RPC 2.0 on stdin/stdout, one message per line or in LSP framing. protocol.md is the prose of this contract; messages.schema.json gives every message whole. Notifications from the server are listed as methods tagged `notification` whose result is never sent.", "license": {"name": "See the repository"}}
                """##),
            "servers": .schema(##"""
                [{"name": "stdio", "url": "stdio:signup-rpc", "summary": "Spawn signup-rpc and speak on its stdin and stdout."}]
                """##),
            "methods": .array(methods),
            "components": object(["schemas": .object(components.map { JSON.Member(key: $0.name, value: $0.schema) })]),
        ])
    }

    package static var messages: JSON {
        var definitions: [JSON.Member] = []
        func define(_ name: String, _ schema: JSON) { definitions.append(JSON.Member(key: name, value: schema)) }
        for type in Messages.requests {
            let documentation = type.documentation
            let params = documentation.paramsComponent.map { object(["oneOf": .array([component($0), object(["type": .string("null")])])]) }
                ?? .schema(#"{"oneOf": [{"type": "null"}, {"type": "array", "maxItems": 0}, {"type": "object", "maxProperties": 0}]}"#)
            define("request." + type.method, object([
                "type": .string("object"),
                "properties": object(["jsonrpc": jsonrpc, "id": id, "method": object(["const": .string(type.method)]), "params": params]),
                "required": strings("jsonrpc", "method"),
                "additionalProperties": .bool(false),
            ]))
            define("result." + type.method, component(documentation.result))
        }
        define("clientMessage", .schema(##"""
            {"description": "A request (with id) or notification (without) from the client, or a batch of them. Members a method does not define are refused, but for initialize's.", "oneOf": [{"$ref": "#/$defs/clientSingle"}, {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/clientSingle"}}]}
            """##))
        define("clientSingle", object(["oneOf": .array((Messages.requests.map { "request." + $0.method } + ["request.lspNotification"]).map(definition))]))
        define("request.lspNotification", .schema(##"""
            {"type": "object", "properties": {"jsonrpc": {"const": "2.0"}, "method": {"type": "string", "pattern": "^\\$/"}, "params": {}}, "required": ["jsonrpc", "method"], "additionalProperties": false, "description": "LSP's $/ notifications, such as $/cancelRequest: ignored."}
            """##))
        var results: [String] = []
        for type in Messages.requests where type.documentation.result != "Null" && !results.contains(type.documentation.result) {
            results.append(type.documentation.result)
        }
        define("response", object([
            "type": .string("object"),
            "properties": object(["jsonrpc": jsonrpc, "id": id, "result": object(["anyOf": .array([object(["type": .string("null")])] + results.map(component))])]),
            "required": strings("jsonrpc", "id", "result"),
            "additionalProperties": .bool(false),
        ]))
        define("errorResponse", object([
            "type": .string("object"),
            "properties": object(["jsonrpc": jsonrpc, "id": id, "error": component("Error")]),
            "required": strings("jsonrpc", "id", "error"),
            "additionalProperties": .bool(false),
        ]))
        for type in Messages.notifications {
            define("notification." + type.method, object([
                "type": .string("object"),
                "properties": object(["jsonrpc": jsonrpc, "method": object(["const": .string(type.method)]), "params": component(type.documentation.paramsComponent)]),
                "required": strings("jsonrpc", "method", "params"),
                "additionalProperties": .bool(false),
            ]))
        }
        define("serverSingle", object(["oneOf": .array((["response", "errorResponse"] + Messages.notifications.map { "notification." + $0.method }).map(definition))]))
        define("serverMessage", .schema(##"""
            {"description": "A response, an error response or a notification, or a batch's responses.", "oneOf": [{"$ref": "#/$defs/serverSingle"}, {"type": "array", "minItems": 1, "items": {"oneOf": [{"$ref": "#/$defs/response"}, {"$ref": "#/$defs/errorResponse"}]}}]}
            """##))
        return object([
            "$schema": .string("https://json-schema.org/draft/2020-12/schema"),
            "$id": .string("https://signup-rpc.invalid/schemas/messages.schema.json"),
            "title": .string("SignupRPC messages"),
            "description": .string("Every message on the wire. A client writes a clientMessage per line (or LSP frame); the server writes serverMessages. Data shapes live in signup-rpc.openrpc.json."),
            "$defs": .object(definitions),
        ])
    }

    /// A request's entry in the OpenRPC document's `methods`.
    private static func method(_ name: String, _ documentation: MethodDocumentation) -> JSON {
        object([
            "name": .string(name),
            "summary": .string(documentation.summary),
            "paramStructure": .string("by-name"),
            "params": .array(documentation.params.map(parameter)),
            "result": object(["name": .string(name + ".result"), "schema": .reference(documentation.result)]),
            "errors": .array(documentation.errors.map { error in
                var members = [JSON.Member(key: "code", value: .number(String(error.code))), JSON.Member(key: "message", value: .string(error.message))]
                if let data = error.data { members.append(JSON.Member(key: "data", value: data)) }
                return .object(members)
            }),
        ])
    }

    /// A notification's entry: a method tagged `notification`, whose result is never sent.
    private static func notification(_ name: String, _ documentation: NotificationDocumentation) -> JSON {
        object([
            "name": .string(name),
            "summary": .string(documentation.summary),
            "tags": .schema(#"[{"name": "notification", "description": "Sent by the server to the client; never answered."}]"#),
            "paramStructure": .string("by-name"),
            "params": .array(documentation.params.map(parameter)),
            "result": .schema(#"{"name": "none", "schema": {"not": {}}}"#),
        ])
    }

    private static func parameter(_ parameter: DocumentedParameter) -> JSON {
        object(["name": .string(parameter.name), "required": .bool(parameter.isRequired), "schema": parameter.schema])
    }

    private static let jsonrpc = object(["const": .string("2.0")])
    private static let id = JSON.schema(#"{"type": ["string", "number", "null"], "description": "Echoed as sent; JSON-RPC discourages null and fractions."}"#)

    /// A component of the OpenRPC document, referred to from `messages.schema.json`.
    private static func component(_ name: String) -> JSON {
        object(["$ref": .string("signup-rpc.openrpc.json#/components/schemas/" + name)])
    }

    private static func definition(_ name: String) -> JSON {
        object(["$ref": .string("#/$defs/" + name)])
    }

    private static func strings(_ values: String...) -> JSON {
        .array(values.map(JSON.string))
    }

    private static func object(_ members: KeyValuePairs<String, JSON>) -> JSON {
        .object(members.map { JSON.Member(key: $0.key, value: $0.value) })
    }
}
