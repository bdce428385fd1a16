import SignupCore
import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// `form.edit` lines read straight from their bytes must be answered exactly as the full parser's
/// path answers them, and every line of another shape must be left to that path.
@Suite struct FormEditLineTests {
    private func read(_ line: String, maxDepth: Int = 64) -> FormEditLine? {
        Array(line.utf8).withUnsafeBufferPointer { FormEditLine.read($0, maxDepth: maxDepth) }
    }

    @Test func readsThePlainShapeInAnyMemberOrder() throws {
        let edit = try #require(read(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f1","field":"username","value":"ådå","at":120}}"#))
        #expect(edit.id == nil && edit.form == "f1" && edit.field == "username" && edit.value == "ådå" && edit.at == 120)
        #expect(edit.formHash == FormIDHash.process("f1"))
        let reordered = try #require(read(#" { "params" : { "value":"", "field":"password" } , "id":-7, "method":"form.edit", "jsonrpc":"2.0" } "#))
        #expect(reordered.id == .number("-7") && reordered.form == nil && reordered.field == "password" && reordered.value == "" && reordered.at == nil)
        #expect(reordered.formHash == nil)
        #expect(read(#"{"id":"a b","jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v","at":0}}"#)?.id == .string("a b"))
    }

    @Test func readsTheCanonicalShapeLiterallyAndAlike() throws {
        let plain = try #require(read(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f1","field":"username","value":"ådå","at":120}}"#))
        #expect(plain.id == nil && plain.form == "f1" && plain.field == "username" && plain.value == "ådå" && plain.at == 120)
        #expect(plain.formHash == FormIDHash.process("f1"))
        let numbered = try #require(read(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"","field":"f","value":""},"id":-42}"#))
        #expect(numbered.id == .number("-42") && numbered.form == "" && numbered.field == "f" && numbered.value == "" && numbered.at == nil)
        let named = try #require(read(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"v","at":0},"id":"k"}"#))
        #expect(named.id == .string("k") && named.at == 0)
    }

    /// Lines that begin in the canonical shape and then leave it, or break a rule, are read member
    /// by member, which refuses them as it refuses them in any other order.
    @Test(arguments: [
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"a\"b"}}"#,        // an escape
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"\u0001"}}"#,     // an escaped control
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"v","at":012}}"#,  // a leading zero
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"v","at":1.5}}"#,  // a fraction
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"v","at":1234567890123456789}}"#,
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"v","at":1,"value":"w"}}"#,
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"v"},"id":null}"#,
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"v"},"id":1,"id":2}"#,
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"v"}}}"#,
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"v"}"#,
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":null,"field":"f","value":"v"}}"#,
    ])
    func leavesBrokenCanonicalLinesToTheFullParser(line: String) {
        #expect(read(line) == nil)
    }

    @Test func readsCanonicalLinesWithWhitespaceOrAnotherOrderMemberByMember() throws {
        let spaced = try #require(read(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"v"}} "#))
        #expect(spaced.form == "f" && spaced.value == "v")
        let idFirst = try #require(read(#"{"jsonrpc":"2.0","id":3,"method":"form.edit","params":{"form":"f","field":"f","value":"v"}}"#))
        #expect(idFirst.id == .number("3"))
    }

    @Test(arguments: [
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"a\"b"}}"#,          // an escape
        #"{"jsonrpc":"2.0","method":"form.edi\u0074","params":{"field":"f","value":"v"}}"#,        // an escaped name
        #"{"jsonrpc":"2.0","method":"form.open","params":{"field":"f","value":"v"}}"#,             // another method
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f"}}"#,                         // no value
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v","value":"w"}}"#, // a repeat
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v","extra":1}}"#,   // an unknown member
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v"},"x":1}"#,       // one more at the top
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":1}}"#,               // a value of another type
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v","at":1.5}}"#,    // a fraction
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v","at":012}}"#,    // a leading zero
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v","at":-1}}"#,     // a negative time
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v","at":1234567890123456789}}"#, // 19 digits
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v"},"id":null}"#,   // a null id
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v"},"id":1e3}"#,    // an exponent
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v"}} x"#,           // trailing text
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v"}"#,              // cut short
        #"[{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v"}}]"#,           // a batch
        #"{"jsonrpc":"1.0","method":"form.edit","params":{"field":"f","value":"v"}}"#,             // another version
    ])
    func leavesEveryOtherShapeToTheFullParser(line: String) {
        #expect(read(line) == nil)
    }

    /// A long field name the catalog knows comes back as the form's own string (same storage), in
    /// either shape; other names, and near misses, are read afresh with the same text.
    @Test func longKnownFieldNamesAreTheFormsOwnStrings() throws {
        let names = KnownFieldNames(FormCatalog.builtIn)
        let known = try #require(FormDefinition.signup.fields.last?.name)
        #expect(known == "repeatedPassword")
        func storage(_ string: String) -> UnsafePointer<UInt8>? {
            string.utf8.withContiguousStorageIfAvailable { $0.baseAddress } ?? nil
        }
        func field(_ line: String) -> String? {
            Array(line.utf8).withUnsafeBufferPointer { FormEditLine.read($0, maxDepth: 64, fieldNames: names) }?.field
        }
        let canonical = try #require(field(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"repeatedPassword","value":"v"}}"#))
        let reordered = try #require(field(#"{"params":{"value":"v","field":"repeatedPassword"},"method":"form.edit","jsonrpc":"2.0"}"#))
        #expect(storage(canonical) == storage(known) && storage(reordered) == storage(known))
        let unknown = try #require(field(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"repeatedPasswords","value":"v"}}"#))
        let nearMiss = try #require(field(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"repeatedPasswore","value":"v"}}"#))
        #expect(unknown == "repeatedPasswords" && nearMiss == "repeatedPasswore" && storage(nearMiss) != storage(known))
        #expect(field(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"v"}}"#) == "username")
        #expect(names.name(spelledBy: UnsafeBufferPointer(start: nil, count: 0)) == nil)
    }

    @Test func leavesInvalidUTF8AndShallowDepthLimitsToTheFullParser() {
        var bytes = Array(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"x"}}"#.utf8)
        bytes[bytes.count - 4] = 0xC3  // a lead byte with no continuation
        #expect(bytes.withUnsafeBufferPointer { FormEditLine.read($0, maxDepth: 64) } == nil)
        #expect(read(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v"}}"#, maxDepth: 1) == nil)
        var canonical = Array(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"x"}}"#.utf8)
        canonical[canonical.count - 4] = 0xC3
        #expect(canonical.withUnsafeBufferPointer { FormEditLine.read($0, maxDepth: 64) } == nil)
        #expect(read(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"v"}}"#, maxDepth: 1) == nil)
    }

    /// Each exchange runs twice, on two servers: once as written, read directly, and once with
    /// the `form.edit` member names escaped, which sends every line through the full parser.
    @Test func answersAndEventsMatchThoseOfTheFullParser() {
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"form":"f1"}}"#,
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f1","field":"username","value":"alice","at":10}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"form.edit","params":{"form":"f1","field":"password","value":"secret","at":20}}"#,
            #"{"jsonrpc":"2.0","id":"s","method":"form.edit","params":{"form":"f1","field":"repeatedPassword","value":"secret","at":400}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"form.edit","params":{"form":"f1","field":"username","value":"alice","at":500}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"form.edit","params":{"field":"username","value":"bob","at":600}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"form.edit","params":{"form":"nope","field":"username","value":"x","at":700}}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"form.edit","params":{"form":"f1","field":"nope","value":"x","at":800}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"form.edit","params":{"form":"f1","field":"username","value":"x","at":5}}"#,
            #"{"jsonrpc":"2.0","id":8,"method":"form.edit","params":{"form":"f1","field":"username","value":"\#(String(repeating: "y", count: 40))","at":900}}"#,
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"nope","field":"username","value":"x"}}"#,
            #"{"jsonrpc":"2.0","id":9,"method":"shutdown"}"#,
            #"{"jsonrpc":"2.0","id":10,"method":"form.edit","params":{"form":"f1","field":"username","value":"carol"}}"#,
        ]
        func run(_ lines: [String]) -> [String] {
            let harness = ServerHarness { $0.limits.maxValueLength = 32 }
            return lines.flatMap { harness.send($0) }
        }
        let escaped = lines.map { $0.replacingOccurrences(of: #""field":"#, with: #""fiel\u0064":"#) }
        let direct = run(lines)
        #expect(direct == run(escaped))
        // The exchange reached every kind of answer, so the comparison covers them.
        #expect(direct.contains { $0.contains(#""id":3,"result":{"form":"f1","version":3}"#) })
        for code in ["-32010", "-32013", "-32002", "-32021", "-32003"] {
            #expect(direct.contains { $0.contains(#""code":\#(code)"#) }, "no error \(code)")
        }
        #expect(direct.contains { $0.contains("form.fieldChanged") && $0.contains(#""form":"default""#) })
    }
}
