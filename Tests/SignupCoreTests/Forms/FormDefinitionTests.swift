import Testing
@testable import SignupCore

@Suite struct FormDefinitionTests {
    private let register = SubmitAction(
        kind: .registerAccount(usernameField: "user", passwordField: "pass"),
        messages: [.taken: Message("t", "taken"), .refused: Message("r", "refused"), .unavailable: Message("u", "down")])

    /// The built-in forms skip compiling their patterns at start-up; this is where they are checked.
    @Test(arguments: [FormDefinition.signup, .githubSignup, .login, .friend])
    func builtInFormsAreCoherentAndTheirPatternsCompile(definition: FormDefinition) throws {
        let rebuilt = try FormDefinition(
            kind: definition.kind, title: definition.title, fields: definition.fields, submit: definition.submit,
            translations: definition.translations)
        #expect(rebuilt == definition)
        func patterns(of check: Rule.Check) -> [String] {
            switch check {
            case .pattern(let pattern): return [pattern]
            case .anyOf(let alternatives): return alternatives.flatMap { $0.flatMap(patterns(of:)) }
            default: return []
            }
        }
        for pattern in definition.fields.flatMap(\.rules).flatMap({ patterns(of: $0.check) }) {
            #expect(Rule.Check.isValidPattern(pattern), "\(definition.kind): \(pattern)")
        }
    }

    @Test func incoherentDefinitionsAreRefusedWithAnActionableReason() {
        let user = FieldDefinition(name: "user")
        let pass = FieldDefinition(name: "pass")
        #expect(throws: FormDefinitionError.noFields(kind: "k")) {
            try FormDefinition(kind: "k", fields: [], submit: register)
        }
        #expect(throws: FormDefinitionError.duplicateField(kind: "k", field: "user")) {
            try FormDefinition(kind: "k", fields: [user, user, pass], submit: register)
        }
        #expect(throws: FormDefinitionError.unknownField(kind: "k", field: "pass", referencedBy: "submit")) {
            try FormDefinition(kind: "k", fields: [user], submit: register)
        }
        let repeatsMissing = FieldDefinition(
            name: "pass", rules: [Rule(.equalsField("nope"), failure: Message("x", "x"))])
        #expect(throws: FormDefinitionError.unknownField(kind: "k", field: "nope", referencedBy: "pass")) {
            try FormDefinition(kind: "k", fields: [user, repeatsMissing], submit: register)
        }
        let negative = FieldDefinition(name: "pass", rules: [Rule(.maxLength(-1), failure: Message("x", "x"))])
        #expect(throws: FormDefinitionError.negativeLength(kind: "k", field: "pass", length: -1)) {
            try FormDefinition(kind: "k", fields: [user, negative], submit: register)
        }
        let itself = FieldDefinition(name: "pass", rules: [Rule(.equalsField("pass"), failure: Message("x", "x"))])
        #expect(throws: FormDefinitionError.selfReference(kind: "k", field: "pass")) {
            try FormDefinition(kind: "k", fields: [user, itself], submit: register)
        }
        #expect(String(describing: FormDefinitionError.duplicateField(kind: "k", field: "user"))
            == "form 'k' defines field 'user' twice; field names must be unique")
    }

    /// Small forms are scanned and large ones hashed; both find each field by its exact name only,
    /// whether given the definition's own string or an equal one stored apart (as a name longer
    /// than a small string is, when read from a line).
    @Test(arguments: [3, 8, 9, 40])
    func fieldsAreFoundByTheirExactName(fieldCount: Int) throws {
        let names = ["user", "pass", "repeatedPassword"] + (3..<fieldCount).map { "field\($0)" }
        let definition = try FormDefinition(kind: "k", fields: names.map { FieldDefinition(name: $0) }, submit: register)
        let form = LocalizedForm(definition: definition)
        #expect(names.map(form.index(ofField:)) == Array(names.indices))
        let copies = names.map { String(decoding: Array($0.utf8), as: UTF8.self) }
        #expect(!copies[2]._isIdentical(to: names[2]))
        #expect(copies.map(form.index(ofField:)) == Array(names.indices))
        for stranger in ["", "use", "users", "User", "pasz", "field", "field1\u{0}", "fieldé", "repeatedPasswore"] {
            #expect(form.index(ofField: stranger) == nil, "\(stranger)")
        }
    }

    /// A second form written purely as data runs on the same pipeline code as sign-up.
    @Test func anotherDefinitionRunsOnTheSamePipeline() throws {
        let definition = try FormDefinition(
            kind: "pin",
            fields: [
                FieldDefinition(
                    name: "user",
                    rules: [Rule(.allowedCharacters(.asciiAlphanumerics), failure: Message("user.ascii", "ASCII only")),
                            Rule(.maxLength(8), failure: Message("user.tooLong", "At most {max} characters"))],
                    successMessage: Message("user.ok", "Fine")),
                FieldDefinition(
                    name: "pass", isRequired: false,
                    rules: [Rule(.allowedCharacters(.asciiDigits), failure: Message("pass.digits", "Digits only"))],
                    successMessage: Message("pass.ok", "Fine"), isSecret: true),
            ],
            submit: register)
        let harness = FormHarness(definition: definition)
        harness.edit(at: 10, "user", "zoë")
        harness.edit(at: 20, "user", "abcdefghi")
        harness.edit(at: 30, "user", "abc")
        harness.edit(at: 40, "pass", "12a")
        harness.edit(at: 50, "pass", "")
        #expect(harness.runToIdle() == [
            "@0 user v0: empty user.empty \"\"",
            "@0 pass v0: ok pass.ok \"Fine\"",
            "@0 submitEnabled false",
            "@10 user v1: failed user.ascii \"ASCII only\"",
            "@20 user v2: failed user.tooLong max=8 \"At most 8 characters\"",
            "@30 user v3: ok user.ok \"Fine\"",
            "@30 submitEnabled true",
            "@40 pass v4: failed pass.digits \"Digits only\"",
            "@40 submitEnabled false",
            "@50 pass v5: ok pass.ok \"Fine\"",
            "@50 submitEnabled true",
        ])
    }

    @Test func messagesFillTheirPlaceholdersFromParameters() {
        let message = Message("password.tooShort", "Password must be at least {min} characters, not {min}!")
        #expect(message.render(["min": 5]) == "Password must be at least 5 characters, not 5!")
        #expect(message.result(.failed, ["min": 5]).description
            == "failed password.tooShort min=5 \"Password must be at least 5 characters, not 5!\"")
    }
}
