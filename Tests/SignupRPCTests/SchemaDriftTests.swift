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
        #expect(documented.keys.sorted() == Messages.notifications.map { $0.method }.sorted())
        for type in Messages.notifications {
            #expect(documented[type.method] == type.members, "\(type.method): the type has \(type.members), the document names \(documented[type.method] ?? [])")
        }
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
        let declared = type(of: notification).members
        #expect(message["method"] as? String == type(of: notification).method)
        let params = try #require(message["params"] as? [String: Any])
        #expect(params.keys.allSatisfy(declared.contains), "\(params.keys.sorted()) against \(declared)")
        // JSONSerialization forgets member order: the written text keeps it.
        let written = String(decoding: writer.bytes, as: UTF8.self)
        let text = written[try #require(written.range(of: #""params":{"#)).upperBound...]
        let positions = declared.filter { params[$0] != nil }.map { text.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil } && positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }
}
