import Testing
@testable import SignupCore

@Suite struct SecretPlaceholdersTests {
    private let passwordRules = FormDefinition.signup.fields.first { $0.name == "password" }!.rules

    @Test func aPlaceholderHasTheSecretsShapeButNoneOfItsCharacters() {
        var placeholders = SecretPlaceholders()
        let secret = "Tr0ub4dor&3 x"
        let placeholder = placeholders.placeholder(for: secret, rules: passwordRules)
        #expect(placeholder.count == secret.count)
        for (original, standIn) in zip(secret, placeholder) {
            #expect(original != standIn || original == " ")
            #expect(original.isUppercase == standIn.isUppercase)
            #expect(original.isLowercase == standIn.isLowercase)
            #expect(original.isNumber == standIn.isNumber)
        }
    }

    @Test func equalSecretsShareAPlaceholderAndDifferentOnesDoNot() {
        var placeholders = SecretPlaceholders()
        let first = placeholders.placeholder(for: "hunter22", rules: passwordRules)
        #expect(placeholders.placeholder(for: "hunter22") == first)
        #expect(placeholders.existing(for: "hunter22") == first)
        let prefixes = (1...8).map { placeholders.placeholder(for: String("hunter22".prefix($0)), rules: passwordRules) }
        #expect(Set(prefixes).count == 8)
        #expect(placeholders.placeholder(for: "") == "")
    }

    @Test func aPlaceholderPassesAndFailsTheSameRules() {
        let rules = [
            Rule(.minLength(5), failure: Message("short", "")),
            Rule(.pattern(".*[0-9].*"), failure: Message("digit", "")),
            Rule(.allowedCharacters(.asciiAlphanumerics), failure: Message("letters", "")),
            Rule(.notOneOf(["password1", "letmein12", "qwerty123"]), failure: Message("common", "")),
        ]
        var placeholders = SecretPlaceholders()
        for secret in ["abc", "abcdef", "abcde5", "abc-de5", "password1", "Password1"] {
            let placeholder = placeholders.placeholder(for: secret, rules: rules)
            let checks = rules.map { CompiledCheck($0.check, indexOf: { _ in nil }) }
            #expect(checks.map { $0.passes(placeholder, valueAt: { _ in "" }) } == checks.map { $0.passes(secret, valueAt: { _ in "" }) },
                    "\(secret) → \(placeholder)")
            #expect(placeholder != secret)
        }
        // A listed password is stood in for by the list's other entry, the one of its validity.
        #expect(placeholders.existing(for: "password1") == "letmein12")
        #expect(placeholders.approximations == 0)
    }
}
