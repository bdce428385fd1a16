import Testing
@testable import SignupCore

@Suite struct CompiledCheckTests {
    private let definition = try! FormDefinition(
        kind: "pair", fields: [FieldDefinition(name: "username"), FieldDefinition(name: "password")],
        submit: FormDefinition.signup.submit)

    private func passes(_ check: Rule.Check, _ value: String, others: [String] = ["", "Other"]) -> Bool {
        CompiledCheck(check, in: definition).passes(value) { others[$0] }
    }

    @Test func anotherFieldIsReadByItsPosition() {
        #expect(passes(.equalsField("password"), "Other"))
        #expect(!passes(.equalsField("password"), "other"))
        // A name the form lacks reads as an empty value.
        #expect(passes(.equalsField("missing"), ""))
        #expect(!passes(.equalsField("missing"), "x"))
    }

    /// Lengths count characters, as `String.count` does, whether or not the bytes alone tell.
    @Test func lengthsCountCharactersNotBytes() {
        #expect(passes(.minLength(5), "abcde") && !passes(.minLength(5), "abcd"))
        #expect(passes(.maxLength(4), "abcd") && !passes(.maxLength(4), "abcde"))
        // "\r\n" is one character; "e" with a combining acute accent is one character of 3 bytes.
        #expect(!passes(.minLength(5), "abc\r\n") && passes(.minLength(4), "abc\r\n"))
        #expect(passes(.maxLength(4), "abc\r\n") && !passes(.maxLength(3), "abc\r\n"))
        #expect(passes(.minLength(2), "ae\u{301}") && !passes(.minLength(3), "ae\u{301}"))
        #expect(passes(.maxLength(3), "ae\u{301}e\u{301}") && !passes(.maxLength(2), "ae\u{301}e\u{301}"))
        // Long enough to be stored out of line, not as a small string.
        #expect(passes(.minLength(20), String(repeating: "x", count: 20)) && !passes(.minLength(21), String(repeating: "x", count: 20)))
    }

    @Test func reservedNamesAreComparedIgnoringCase() {
        let reserved = Rule.Check.notOneOf(["Admin", "www"])
        #expect(!passes(reserved, "admin"))
        #expect(!passes(reserved, "WWW"))
        #expect(passes(reserved, "admins"))
    }

    @Test func anAlternativePassesWhenAllItsChecksDo() {
        let check = Rule.Check.anyOf([[.minLength(8), .allowedCharacters(.asciiDigits)], [.equalsField("password")]])
        #expect(passes(check, "12345678"))
        #expect(!passes(check, "1234567"))
        #expect(passes(check, "Other"))
        #expect(!passes(check, "abcdefgh"))
    }
}
