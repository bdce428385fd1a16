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

    /// The trace writes a plain edit from its typed form, never building the message: the message
    /// redacted, its members in the protocol's order, whatever its id, form, field and time.
    @Test(arguments: [
        #"{"jsonrpc":"2.0","id":1,"method":"form.edit","params":{"form":"f","field":"password","value":"hunter2","at":5}}"#,
        #"{"params":{"value":"ann","field":"username"},"method":"form.edit","jsonrpc":"2.0","id":"a-1"}"#,
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"repeatedPassword","value":""}}"#,
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"nickname","value":"Zoe","at":7}}"#,
        #"{"jsonrpc":"2.0","id":12345,"method":"form.edit","params":{"field":"email","value":"a@b.example"}}"#,
    ])
    func aPlainEditIsWrittenAsItsMessageRedacted(line: String) throws {
        let edit = try #require(Array(line.utf8).withUnsafeBufferPointer { FormEditLine.read($0, maxDepth: 64) })
        var written = JSONWriter()
        let value = redaction.write(edit, to: &written)
        let message = try Array(line.utf8).withUnsafeBufferPointer { try JSONParser.parse($0) }
        var expected = JSONWriter()
        expected.json(redaction.redacting(message) { _, place in redaction.isSecretField(named: place.field) ? SecretRedaction.mask : nil })
        let inOrder = { (json: JSON) -> JSON in
            guard case .object(let members) = json else { return json }
            let order = ["jsonrpc", "id", "method", "params", "form", "field", "value", "at"]
            return .object(members.sorted { order.firstIndex(of: $0.key)! < order.firstIndex(of: $1.key)! })
        }
        var params = try JSONParser.parse(expected.bytes)
        if case .object(let members) = params {
            params = inOrder(.object(members.map { $0.key == "params" ? JSON.Member(key: $0.key, value: inOrder($0.value)) : $0 }))
        }
        var reordered = JSONWriter()
        reordered.json(params)
        #expect(String(decoding: written.bytes, as: UTF8.self) == String(decoding: reordered.bytes, as: UTF8.self))
        #expect(value == (["password", "repeatedPassword"].contains(edit.field) ? .secret : edit.field == "nickname" ? .masked : .shown))
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
