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
