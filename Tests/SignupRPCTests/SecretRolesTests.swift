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
        // What the client says of itself is shown; a credential, and a param no role names, are not.
        #expect(try redacted(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":7,"clientKey":"token-1","clientInfo":{"name":"x"},"locale":"en","rootUri":"file:///a"}}"#)
            == #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":7,"clientKey":"[secret]","clientInfo":{"name":"x"},"locale":"en","rootUri":"[secret]"}}"#)
    }

    /// No word decides: a credential named by no word for a secret is hidden all the same (the
    /// word gate showed `clientKey` whole when nothing in the message said "token"), and a word
    /// shows nothing its type does not.
    @Test func wordsInAMessageDecideNothing() throws {
        #expect(try redacted(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientKey":"ann-4711"}}"#)
            == #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientKey":"[secret]"}}"#)
        #expect(try redacted(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"my password is long"}}"#)
            == #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"my password is long"}}"#)
    }

    @Test func aFieldNoKindHasShowsNoValue() throws {
        #expect(try redacted(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"nickname","value":"ann"}}"#)
            == #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"nickname","value":"[secret]"}}"#)
        #expect(try redacted(#"{"jsonrpc":"2.0","id":2,"method":"form.open","params":{"values":{"username":"ann","pin":"1234"}}}"#)
            == #"{"jsonrpc":"2.0","id":2,"method":"form.open","params":{"values":{"username":"ann","pin":"[secret]"}}}"#)
    }

    @Test func whatIsNoMessageIsMaskedWhole() throws {
        #expect(try redacted(#"[{"jsonrpc":"2.0","method":"form.peek","params":["ann"]},"hunter2",42]"#)
            == #"[{"jsonrpc":"2.0","method":"form.peek","params":["[secret]"]},"[secret]",0]"#)
        #expect(try redacted(#"{"jsonrpc":"2.0","method":"exit","params":{"why":"ann"},"extra":"x"}"#)
            == #"{"jsonrpc":"2.0","method":"exit","params":{"why":"[secret]"},"extra":"[secret]"}"#)
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
