import Foundation
@testable import SignupCore
@testable import SignupProtocol
@testable import SignupServer
import Testing

/// The documents the message types write (`SchemaDocuments`, held to `schemas/` by
/// `SchemaDocumentsTests`) are held to what the code does: each method's params component names
/// the params it takes, its decoding takes the JSON types and requiredness its documentation
/// gives, every registered method has a handler, and each notification writes the members its
/// documentation names, in that order (`clock.advance`'s `exclusive` drifted once).
@Suite struct SchemaDriftTests {
    static func document() throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: "schemas/signup-rpc.openrpc.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// `messages.schema.json`, the schema clients check their messages with, gives every request
    /// type a `request.METHOD`, whose params object holds exactly the type's params (through
    /// `$ref`s into either document), and has no request the types do not register.
    @Test func theMessagesSchemaGivesEachRequestItsTypesParams() throws {
        let data = try #require(FileManager.default.contents(atPath: "schemas/messages.schema.json"))
        let messages = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let definitions = try #require(messages["$defs"] as? [String: Any])
        let components = try #require((try Self.document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
        func resolved(_ schema: [String: Any]) throws -> [String: Any] {
            guard let reference = schema["$ref"] as? String else { return schema }
            let name = try #require(reference.split(separator: "/").last.map(String.init))
            let target = reference.hasPrefix("#/$defs/") ? definitions[name] : components[name]
            return try resolved(try #require(target as? [String: Any], "\(reference) is not defined"))
        }
        let documented = definitions.keys.filter { $0.hasPrefix("request.") && $0 != "request.lspNotification" }
            .map { String($0.dropFirst("request.".count)) }
        #expect(documented.sorted() == Messages.requests.map { $0.method }.sorted())
        for type in Messages.requests {
            let request = try #require(definitions["request.\(type.method)"] as? [String: Any], "no request.\(type.method)")
            let params = try #require((request["properties"] as? [String: Any])?["params"] as? [String: Any])
            let objects = try (params["oneOf"] as? [[String: Any]] ?? [params]).map(resolved)
                .filter { $0["type"] as? String == "object" }
            let names = Set(objects.flatMap { ($0["properties"] as? [String: Any] ?? [:]).keys })
            let taken = type.documentation.params.map { $0.name }
            #expect(names == Set(taken), "\(type.method): the schema's params are \(names.sorted()), the type takes \(taken)")
        }
    }

    @Test func everyRegisteredMethodHasAHandler() {
        #expect(Server.unhandledMethods == [])
    }

    /// What each notification type writes is its method, with members its type declares, in
    /// that order.
    @Test(arguments: [
        FieldChangedNotification(form: "x", update: FieldUpdate(field: "f", result: FieldResult(state: .ok, code: "c", message: "m"), version: 1), at: 5),
        FieldPresenceChangedNotification(form: "x", update: PresenceUpdate(field: "f", presence: FieldPresence(shown: true, required: false)), at: 5),
        SubmitEnabledChangedNotification(form: "x", enabled: true, at: 5),
        SubmissionChangedNotification(form: "x", state: .failed(SubmissionFailure(code: "c", params: [:], message: "m")), action: FormDefinition.signup.submit, at: 5),
        SubmissionChangedNotification(form: "x", state: .succeeded(account: .object(["id": .int(1)])), action: FormDefinition.signup.submit, at: 5),
    ] as [any NotificationType])
    func eachNotificationWritesItsMethodAndDeclaredMembersInOrder(notification: any NotificationType) throws {
        var writer = JSONWriter()
        notification.write(to: &writer)
        let message = try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any])
        let declared = type(of: notification).documentation.params.map { $0.name }
        #expect(message["method"] as? String == type(of: notification).method)
        let params = try #require(message["params"] as? [String: Any])
        #expect(params.keys.allSatisfy(declared.contains), "\(params.keys.sorted()) against \(declared)")
        // JSONSerialization forgets member order: the written text keeps it.
        let written = String(decoding: writer.bytes, as: UTF8.self)
        let text = written[try #require(written.range(of: #""params":{"#)).upperBound...]
        let positions = declared.filter { params[$0] != nil }.map { text.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil } && positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }

    /// The JSON types the document allows for a param: its `type`, or its `oneOf`'s, through
    /// `$ref`s into the document's components.
    private static func types(of schema: [String: Any], in document: [String: Any]) throws -> Set<String> {
        if let reference = schema["$ref"] as? String {
            let name = try #require(reference.split(separator: "/").last.map(String.init))
            let components = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
            return try types(of: try #require(components[name] as? [String: Any]), in: document)
        }
        if let alternatives = schema["oneOf"] as? [[String: Any]] {
            return try alternatives.reduce(into: Set<String>()) { $0.formUnion(try types(of: $1, in: document)) }
        }
        return [try #require(schema["type"] as? String)]
    }

    /// A value of each JSON type, as a param would carry it.
    private static let samples: [String: JSON] = [
        "string": .string("x"), "integer": .number("1"), "boolean": .bool(true),
        "object": .object([JSON.Member(key: "a", value: .string("b"))]), "array": .array([]), "null": .null,
    ]

    /// Each type's decoding takes each param of the types the document allows, refuses one of any
    /// other type as that param, and requires what the document requires.
    @Test func everyParamIsReadAsTheDocumentTypesIt() throws {
        let document = try Self.document()
        let methods = try #require(document["methods"] as? [[String: Any]])
        for type in Messages.requests where type.unknownParameters != .ignored {
            let method = try #require(methods.first { $0["name"] as? String == type.method })
            let params = method["params"] as? [[String: Any]] ?? []
            let required = params.filter { $0["required"] as? Bool == true }.compactMap { $0["name"] as? String }
            // The required params, each with a value of its type.
            var base: [JSON.Member] = []
            for param in params where required.contains(param["name"] as! String) {
                let allowed = try Self.types(of: try #require(param["schema"] as? [String: Any]), in: document)
                base.append(JSON.Member(key: param["name"] as! String, value: try #require(allowed.sorted().compactMap { Self.samples[$0] }.first)))
            }
            func decode(_ members: [JSON.Member]) -> RPCError? {
                do throws(RPCError) {
                    _ = try type.init(try type.params(.object(members)))
                    return nil
                } catch {
                    return error
                }
            }
            func isAbout(_ error: RPCError?, _ name: String) -> Bool {
                if case .invalidParams(let member, _)? = error { return member == "params.\(name)" }
                return false
            }
            for param in params {
                let name = param["name"] as! String
                let allowed = try Self.types(of: try #require(param["schema"] as? [String: Any]), in: document)
                let others = base.filter { $0.key != name }
                for (typeName, sample) in Self.samples {
                    let error = decode(others + [JSON.Member(key: name, value: sample)])
                    // An integer is a number too, and a document's "number" takes an integer.
                    if allowed.contains(typeName) {
                        #expect(!isAbout(error, name), "\(type.method): params.\(name) as \(typeName) refused: \(String(describing: error))")
                    } else {
                        #expect(isAbout(error, name), "\(type.method): params.\(name) as \(typeName) not refused as itself: \(String(describing: error))")
                    }
                }
                if required.contains(name) {
                    #expect(decode(others) == .invalidParams(member: "params.\(name)", problem: "is required"), "\(type.method): \(name)")
                }
            }
        }
    }
}
