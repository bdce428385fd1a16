import Foundation
@testable import SignupProtocol
import SignupTestSupport
import Testing

/// `schemas/signup-rpc.openrpc.json` and `schemas/messages.schema.json` are what the message
/// types registered in `Messages` write (`SchemaDocuments`), byte for byte, and
/// `signup-rpc schemas` writes and checks them.
@Suite struct SchemaDocumentsTests {
    @Test func theFilesInSchemasAreWhatTheMessageTypesWrite() throws {
        for (name, text) in SchemaDocuments.files {
            let file = try #require(FileManager.default.contents(atPath: "schemas/" + name), "schemas/\(name)")
            #expect(String(decoding: file, as: UTF8.self) == text, "schemas/\(name) is not what the types write: run `swift run signup-rpc schemas schemas`")
        }
    }

    /// Every method and notification registered is in the OpenRPC document, in the registry's
    /// order, and every `$ref` in either document names a component or definition there is.
    @Test func everyRegisteredMessageIsDocumentedAndEveryReferenceResolves() throws {
        let openRPC = SchemaDocuments.openRPC, messages = SchemaDocuments.messages
        guard case .array(let methods)? = openRPC["methods"] else { Issue.record("no methods"); return }
        let registered = Messages.requests.map { $0.method } + Messages.notifications.map { $0.method }
        #expect(methods.map { $0["name"] } == registered.map { JSON.string($0) })
        guard case .object(let components)? = openRPC["components"]?["schemas"], case .object(let definitions)? = messages["$defs"] else {
            Issue.record("no components or definitions"); return
        }
        #expect(Set(components.map(\.key)).count == components.count, "a component is declared twice")
        func collect(_ value: JSON, into found: inout Set<String>) {
            switch value {
            case .object(let members):
                for member in members {
                    if member.key == "$ref", case .string(let target) = member.value { found.insert(target) } else { collect(member.value, into: &found) }
                }
            case .array(let elements): for element in elements { collect(element, into: &found) }
            default: break
            }
        }
        var inOpenRPC = Set<String>(), inMessages = Set<String>()
        collect(openRPC, into: &inOpenRPC)
        collect(messages, into: &inMessages)
        let references = [("#/components/schemas/", inOpenRPC), ("signup-rpc.openrpc.json#/components/schemas/", inMessages)]
        let componentNames = Set(components.map(\.key)), definitionNames = Set(definitions.map(\.key))
        for (prefix, targets) in references {
            for target in targets {
                if target.hasPrefix(prefix) {
                    #expect(componentNames.contains(String(target.dropFirst(prefix.count))), "\(target)")
                } else {
                    #expect(target.hasPrefix("#/$defs/") && definitionNames.contains(String(target.dropFirst("#/$defs/".count))), "\(target)")
                }
            }
        }
    }

    /// The documents' text is Python's `json.dumps(indent=2, ensure_ascii=False)`: so the scripts
    /// that read and write them beside the Swift code agree on every byte.
    @Test func indentedTextIsWhatPythonWrites() {
        let value = JSON.object([
            JSON.Member(key: "a", value: .array([.number("1"), .bool(true), .null, .array([]), .object([])])),
            JSON.Member(key: "quote \" slash \\", value: .string("tab\t line\n cr\r bell\u{07} back\u{08} feed\u{0C} del\u{7F} é 例 /")),
        ])
        #expect(value.indentedText == """
            {
              "a": [
                1,
                true,
                null,
                [],
                {}
              ],
              "quote \\" slash \\\\": "tab\\t line\\n cr\\r bell\\u0007 back\\b feed\\f del\u{7F} é 例 /"
            }
            """)
    }

    @Test func theCommandWritesTheDocumentsAndChecksThem() throws {
        let folder = try TemporaryDirectory()
        let stale = try Subprocess.run(["schemas", folder.path(""), "--check"], input: "")
        #expect(stale.status == 1 && stale.stderr.contains("signup-rpc.openrpc.json") && stale.stderr.contains("messages.schema.json"))
        let written = try Subprocess.run(["schemas", folder.path("")], input: "")
        #expect(written.status == 0 && written.stdout.isEmpty && written.stderr.isEmpty)
        for (name, text) in SchemaDocuments.files {
            #expect(FileManager.default.contents(atPath: folder.path(name)) == Data(text.utf8))
        }
        let checked = try Subprocess.run(["schemas", folder.path(""), "--check"], input: "")
        #expect(checked.status == 0 && checked.stderr.isEmpty)
        let usage = try Subprocess.run(["schemas"], input: "")
        #expect(usage.status == 64 && usage.stderr.contains("schemas needs a directory"))
    }
}
