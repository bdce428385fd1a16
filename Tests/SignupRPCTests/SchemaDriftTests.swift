import Foundation
@testable import SignupCore
@testable import SignupProtocol
@testable import SignupServer
import Testing

/// The OpenRPC document in `schemas/` is held to the message types registered in `Messages`:
/// every method's params, by name and in order, and every notification's members, in the order
/// the server writes them (`clock.advance`'s `exclusive` drifted once).
@Suite struct SchemaDriftTests {
    static func document() throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: "schemas/signup-rpc.openrpc.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func everyMethodTakesTheParamsTheDocumentNames() throws {
        let methods = try #require(try Self.document()["methods"] as? [[String: Any]])
        let requests = methods.filter { $0["tags"] == nil }
        var documented: [String: [String]] = [:]
        for method in requests {
            let name = try #require(method["name"] as? String)
            documented[name] = (method["params"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        #expect(documented.keys.sorted() == Messages.requests.map { $0.method }.sorted())
        for type in Messages.requests {
            #expect(documented[type.method] == type.parameters, "\(type.method): the type takes \(type.parameters), the document names \(documented[type.method] ?? [])")
        }
    }

    @Test func everyRegisteredMethodHasAHandler() {
        #expect(Server.unhandledMethods == [])
    }

    @Test func everyNotificationCarriesTheMembersTheDocumentNamesInItsOrder() throws {
        let methods = try #require(try Self.document()["methods"] as? [[String: Any]])
        var documented: [String: [String]] = [:]
        for method in methods where method["tags"] != nil {
            documented[method["name"] as! String] = (method["params"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        let events: [FormEvent] = [
            .fieldChanged(FieldUpdate(field: "f", result: FieldResult(state: .ok, code: "c", message: "m"), version: 1)),
            .presenceChanged(PresenceUpdate(field: "f", presence: FieldPresence(shown: true, required: false))),
            .submitEnabledChanged(true),
        ]
        for event in events {
            var writer = JSONWriter()
            Notifications.write(event, form: "x", at: 5, action: FormDefinition.signup.submit, to: &writer)
            let message = try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any])
            let method = try #require(message["method"] as? String)
            // JSONSerialization forgets member order: the written text keeps it (inside the
            // message's own params, whose first member is the form).
            let written = String(decoding: writer.bytes, as: UTF8.self)
            let text = written[try #require(written.range(of: #""params":{"#)).upperBound...]
            let params = try #require(documented[method])
            let positions = params.map { text.range(of: "\"\($0)\":")?.lowerBound }
            #expect(positions.allSatisfy { $0 != nil }, "\(method): \(text) lacks one of \(params)")
            #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "\(method): members not in the document's order")
        }
    }
}
