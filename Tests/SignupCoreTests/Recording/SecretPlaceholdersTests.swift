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

    /// Issue 36 §2: for every kind of rule, a secret that passes and one that fails get a
    /// placeholder of the same verdict, other than the secret, keeping no more of it than the
    /// rule pins.
    @Test(arguments: [
        ("minLength", Rule.Check.minLength(6), "abc123", "abc1"),
        ("maxLength", .maxLength(4), "ab1", "abcde1"),
        ("characters", .allowedCharacters(.asciiDigits), "4711", "47a1"),
        ("pattern with a literal", .pattern("7[0-9]{3}"), "7123", "8123"),
        ("pattern with literals at both ends", .pattern("x[a-z]+9"), "xabc9", "xabc8"),
        ("one-entry list", .notOneOf(["admin"]), "admin2", "admin"),
        ("one-entry list, in another case", .notOneOf(["Secret"]), "secrets", "SECRET"),
        ("anyOf", .anyOf([[.minLength(10)], [.pattern("7.*")]]), "7abc", "8abc"),
    ])
    func everyRuleKindKeepsItsVerdict(name: String, check: Rule.Check, passing: String, failing: String) {
        let rules = [Rule(check, failure: Message("bad", ""))]
        let compiled = CompiledCheck(check, indexOf: { _ in nil })
        var placeholders = SecretPlaceholders()
        for (secret, passes) in [(passing, true), (failing, false)] {
            #expect(compiled.passes(secret, valueAt: { _ in "" }) == passes, "\(name): the secret \(secret) as the test means it")
            let placeholder = placeholders.placeholder(for: secret, rules: rules)
            #expect(compiled.passes(placeholder, valueAt: { _ in "" }) == passes, "\(name): \(secret) → \(placeholder)")
            #expect(placeholder != secret && placeholder.count == secret.count, "\(name): \(secret) → \(placeholder)")
        }
        #expect(placeholders.approximations == 0)
    }

    @Test func onlyWhatAPatternPinsIsKept() {
        var placeholders = SecretPlaceholders()
        let placeholder = placeholders.placeholder(for: "7123", rules: [Rule(.pattern("7[0-9]{3}"), failure: Message("bad", ""))])
        #expect(placeholder.first == "7")
        #expect(zip(placeholder.dropFirst(), "123").allSatisfy { $0 != $1 }, "\(placeholder)")
    }

    /// A rule comparing the secret with another field by likeness (`signup-secure`'s password and
    /// username) is judged beside that field's value as given: a placeholder is exactly as alike.
    private static let unlikeUsername = SecretPlaceholders.Rules([Rule(.notSimilarTo("username"), failure: Message("like", ""))])

    private static func isLike(_ password: String, _ username: String) -> Bool {
        PasswordSimilarity.isTooSimilar(password, to: username, within: MatchBudget())!
    }

    @Test(arguments: [("Qz7W", "user4"), ("abcd", "bob"), ("user4x", "user4"), ("Us3r4", "user4"), ("correct horse", "ann")])
    func aPlaceholderIsAsLikeTheOtherFieldAsItsSecret(secret: String, username: String) {
        var placeholders = SecretPlaceholders()
        let placeholder = placeholders.placeholder(for: secret, judgedBy: Self.unlikeUsername, comparedWith: ["username": username])
        #expect(placeholder != secret && placeholder.count == secret.count)
        #expect(Self.isLike(placeholder, username) == Self.isLike(secret, username), "\(placeholder) beside \(username)")
        #expect(placeholders.approximations == 0)
    }

    @Test func theFieldsThatRulesCompareBySimilarityAreNamed() {
        #expect(Rule.Check.notSimilarTo("username").fieldsComparedByLikeness == ["username"])
        #expect(Rule.Check.equalsField("password").fieldsComparedByLikeness == [])
        let either = Rule.Check.anyOf([[.minLength(20)], [.notSimilarTo("email")]])
        #expect(either.fieldsComparedByLikeness == ["email"])
    }

    /// A secret keeps its placeholder wherever it recurs; beside a value that judges the two
    /// apart, that is counted as a placeholder that does not keep its secret's verdicts.
    @Test func aRecurringSecretBesideAnotherValueKeepsItsPlaceholderAndIsCounted() {
        var placeholders = SecretPlaceholders()
        let first = placeholders.placeholder(for: "Qz7W", judgedBy: Self.unlikeUsername, comparedWith: ["username": "ann"])
        #expect(placeholders.placeholder(for: "Qz7W", judgedBy: Self.unlikeUsername, comparedWith: ["username": "ann"]) == first)
        #expect(placeholders.approximations == 0)
        // "qz7w1" is like "Qz7W"; the placeholder is not.
        #expect(placeholders.placeholder(for: "Qz7W", judgedBy: Self.unlikeUsername, comparedWith: ["username": "qz7w1"]) == first)
        #expect(Self.isLike("Qz7W", "qz7w1") && !Self.isLike(first, "qz7w1"))
        #expect(placeholders.approximations == 1)
    }

    /// The search is bounded (`SecretPlaceholders.searchSteps`): once a message's budget is
    /// spent, a secret gets the first stand-in of its shape, judged by nothing, and is counted.
    @Test func aSecretMetOnceTheSearchIsSpentGetsAStandInOfItsShapeAndIsCounted() {
        let rules = SecretPlaceholders.Rules([Rule(.pattern("[a-z]+[0-9]"), failure: Message("bad", ""))])
        var placeholders = SecretPlaceholders()
        let spent = MatchBudget(stepsPerMessage: 0)
        let standIn = placeholders.placeholder(for: "hunter22", judgedBy: rules, within: spent)
        #expect(placeholders.approximations == 1)
        #expect(standIn != "hunter22" && standIn.count == 8 && standIn.prefix(6).allSatisfy(\.isLowercase) && standIn.suffix(2).allSatisfy(\.isNumber))
        // Judged within the budget, the same secret keeps its verdicts, and is not counted.
        var judged = SecretPlaceholders()
        let search = MatchBudget(stepsPerMessage: SecretPlaceholders.searchSteps)
        let placeholder = judged.placeholder(for: "hunter22", judgedBy: rules, within: search)
        #expect(judged.approximations == 0 && placeholder != "hunter22" && placeholder.count == 8)
        // Judging it spent steps of the message's budget: a dictionary-free rule, a few steps.
        #expect(search.remaining < SecretPlaceholders.searchSteps && search.remaining > 0)
    }

    /// The secrets of one message share its search's steps: each value judged costs what its
    /// checks spent (a match, its steps and one), and once they are spent the rest are counted.
    @Test func theSecretsOfAMessageShareItsSearch() {
        let rules = SecretPlaceholders.Rules([Rule(.pattern("[a-z]+[0-9]+"), failure: Message("bad", ""))])
        var placeholders = SecretPlaceholders()
        let search = MatchBudget(stepsPerMessage: 20)
        let secrets = (0..<30).map { "hunter\($0 + 10)" }
        let made = secrets.map { placeholders.placeholder(for: $0, judgedBy: rules, within: search) }
        // A step a match, two matches a secret (itself, its first stand-in): ten secrets spend
        // the 20 steps, and the other twenty are counted.
        #expect(search.remaining == 0)
        #expect(placeholders.approximations == 20)
        #expect(zip(secrets, made).allSatisfy { $0 != $1 && $0.count == $1.count })
    }
}
