import SignupCore
import Testing
@testable import SignupProtocol
@testable import SignupServer

/// The trace and the recording redact params through their method's type
/// (`RequestType.parameterRoles`), never by the names of the params themselves.
@Suite struct SecretRolesTests {
    private let redaction = SecretRedaction(forms: FormCatalog.builtIn.definitions)

    private func redacted(_ text: String) throws -> String {
        let message = try Array(text.utf8).withUnsafeBufferPointer { try JSONParser.parse($0) }
        var writer = JSONWriter()
        // As the trace does: a secret field's value replaced, any other kept.
        writer.json(redaction.redacting(message) { _, place in redaction.isSecretField(named: place.field) ? "<\(place.field)>" : nil })
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func aRegisteredMethodShowsWhatItsTypeSaysAndMasksTheRest() throws {
        #expect(try redacted(#"{"jsonrpc":"2.0","id":1,"method":"form.edit","params":{"form":"f","field":"password","value":"hunter2","at":5}}"#)
            == #"{"jsonrpc":"2.0","id":1,"method":"form.edit","params":{"form":"f","field":"password","value":"<password>","at":5}}"#)
        #expect(try redacted(#"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"signup","values":{"username":"ann","password":"pw"},"locale":"en"}}"#)
            == #"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"signup","values":{"username":"ann","password":"<password>"},"locale":"en"}}"#)
        // A credential and free-form members have no role that shows them.
        #expect(try redacted(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":7,"clientKey":"token-1","clientInfo":{"name":"x"},"locale":"en"}}"#)
            == #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":7,"clientKey":"[secret]","clientInfo":{"name":"[secret]"},"locale":"en"}}"#)
    }

    @Test func aRoleShowsOnlyAValueOfItsShape() throws {
        #expect(try redacted(#"{"jsonrpc":"2.0","method":"form.submit","params":{"form":{"password":"x"},"at":"token"}}"#)
            == #"{"jsonrpc":"2.0","method":"form.submit","params":{"form":{"password":"[secret]"},"at":"[secret]"}}"#)
    }

    @Test func aMethodNoTypeRegistersShowsNothingOfItsParams() throws {
        #expect(try redacted(#"{"jsonrpc":"2.0","id":1,"method":"form.peek","params":{"form":"f","field":"password","value":"hunter2"}}"#)
            == #"{"jsonrpc":"2.0","id":1,"method":"form.peek","params":{"form":"[secret]","field":"[secret]","value":"[secret]"}}"#)
    }
}
