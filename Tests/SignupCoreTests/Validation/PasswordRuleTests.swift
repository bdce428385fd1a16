import Foundation
import Testing
@testable import SignupCore

/// The NIST SP 800-63B rev. 4 password rules (issue 38 §1): lengths in code points, common,
/// repetitive, sequential and dictionary passwords, and similarity to the form's other fields.
@Suite struct PasswordRuleTests {
    private func judge(_ check: Rule.Check, _ value: String, others: [String] = [], budget: MatchBudget = MatchBudget()) -> CheckOutcome {
        let names = ["other"]
        let compiled = CompiledCheck(check, indexOf: { names.firstIndex(of: $0) })
        return compiled.judge(value, valueAt: { others.indices.contains($0) ? others[$0] : "" }, budget: budget)
    }

    @Test func lengthsCountCodePointsSoAstralCharactersCountOnce() {
        let fifteenAstral = String(repeating: "😀", count: 15)  // 60 bytes, 30 UTF-16 units
        #expect(judge(.minCodePoints(15), fifteenAstral) == .passes)
        #expect(judge(.minCodePoints(15), String(fifteenAstral.dropLast())) == .fails)
        // A family emoji is one character of seven code points.
        let family = "👨‍👩‍👧‍👦"
        #expect(judge(.minCodePoints(7), family) == .passes && judge(.minCodePoints(8), family) == .fails)
        #expect(judge(.maxCodePoints(64), String(repeating: "é", count: 64)) == .passes)
        #expect(judge(.maxCodePoints(64), String(repeating: "é", count: 65)) == .fails)
        // Counted after the field's NFKC normalisation: the ligature ﬃ is three code points.
        let field = FieldDefinition(name: "p", normalization: .nfkc)
        #expect(field.normalized("ﬃ").unicodeScalars.count == 3)
    }

    @Test(arguments: [
        ("aaaaaaaaaaaaaaa", true), ("abcabcabcabcabc", true), ("123456789012345", true), ("abcdefghijklmnop", true),
        ("zyxwvutsrqponml", true), ("qwertyuiopasdfg", true), ("POIUYTREWQ", true), ("1qaz2wsx3edc4rfv", true),
        ("9876543210", true), ("ababababababab", true), ("correct horse battery", false), ("abcdefghijklmnoq", false),
        ("aaaaaaaaaaaaaab", false), ("qwertyuiop1", false), ("ππππππππππππππππ", true), ("αβγδεζηθικλμνξο", true),
    ])
    func repetitiveAndSequentialWholeValues(value: String, refused: Bool) {
        #expect(judge(.notRepetitiveOrSequential, value) == (refused ? .fails : .passes))
    }

    @Test func commonPasswordsAreComparedWholeAndCaseInsensitively() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("common-\(UUID().uuidString).txt").path
        try "123456\npassword\n\niloveyou\nmonkey123\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let list = try PasswordList(path: path)
        #expect(list.count == 4)
        #expect(judge(.notCommonPassword(list), "ILoveYou") == .fails)
        #expect(judge(.notCommonPassword(list), "iloveyou!") == .passes)
        #expect(judge(.notCommonPassword(list), String(repeating: "p", count: 1 << 16)) == .passes)
        #expect(Rule(.notCommonPassword(list), failure: Message("c", "c")).failureParams == ["count": .int(4)])
        #expect(Rule.Check.notCommonPassword(list).missingRequirement == nil)
    }

    @Test func theShippedListNeedsNothingInstalled() throws {
        let shipped = PasswordList.shipped
        #expect(shipped.problem == nil && Rule.Check.notCommonPassword(shipped).missingRequirement == nil)
        #expect(shipped.count == 19_640)  // Django's 19 646 lines, six of them alike but for case
        #expect(shipped.contains("Password1") && shipped.contains("iloveyou") && !shipped.contains("mauve kettle drums at dawn"))
    }

    @Test func anUnreadableListSaysWhatToDoToTheOperator() {
        let missing = PasswordList(readingOnFirstUse: "/nonexistent/common.txt")
        #expect(Rule.Check.notCommonPassword(missing).missingRequirement
            == "the common-password list /nonexistent/common.txt ($SIGNUP_PASSWORD_LIST) cannot be read; unset it to use the shipped list")
        #expect(!missing.contains("123456"))
    }

    @Test(arguments: [
        // (password, other field, refused)
        ("annabelle2024", "annabelle", true), ("Annabelle-Lee-1990", "annabelle-lee", true),
        ("xX_ann.lee@example.com_Xx", "ann.lee@example.com", true), ("ann.lee.2024", "ann.lee@example.com", true), ("ann.lee.forever.and.ever", "ann.lee@example.com", false),
        ("correct horse battery staple", "ann", false), ("correct horse battery staple", "annabelle", false),
        ("correct horse battery staple", "", false), ("blue violet sunrise", "ann.lee@example.com", false),
        ("correct horse battery staple", "correct horse battery staple!", true),
    ])
    func similarityToAnotherField(password: String, other: String, refused: Bool) {
        #expect(judge(.notSimilarTo("other"), password, others: [other]) == (refused ? .fails : .passes))
    }

    @Test func similarityCostIsBoundedWhateverTheLengths() {
        // Each side is read by its first 256 code points: a megabyte costs no more than that.
        let huge = String(repeating: "ab", count: 1 << 19)
        #expect(PasswordSimilarity.isTooSimilar(huge, to: huge, within: MatchBudget()) == true)
        // Two candidates of 256 × 256 cells cost 9 steps of a message's budget; a spent budget judges nothing.
        let budget = MatchBudget(stepsPerMessage: 11)
        #expect(PasswordSimilarity.isTooSimilar(huge, to: "xyz" + huge, within: budget) == true && budget.remaining == 2)
        #expect(PasswordSimilarity.isTooSimilar(huge, to: huge, within: budget) == nil && budget.remaining == 2)
        #expect(PasswordSimilarity.editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars)) == 3)
        #expect(PasswordSimilarity.longestCommonRun(Array("xabcdy".unicodeScalars), Array("zzabcdzz".unicodeScalars)) == 4)
    }

    @Test func aDictionaryQuestionCostsItsStepsOnceAndAKeptAnswerNothing() throws {
        guard DictionaryWords.problem == nil else { return }
        let budget = MatchBudget(stepsPerMessage: 4)
        let fresh = "zebra-\(UInt64.random(in: 0..<UInt64.max))"
        #expect(judge(.notDictionaryWord, fresh, budget: budget) != .tooCostly && budget.remaining == 1)
        #expect(judge(.notDictionaryWord, fresh + "x", budget: budget) == .tooCostly && budget.remaining == 1)
        #expect(judge(.notDictionaryWord, fresh, budget: budget) != .tooCostly && budget.remaining == 1)
    }

    /// A longer password costs cracklib longer, and its question more steps: 3 up to 32 bytes, a
    /// step for every 2 bytes past them, at most 128; so a message of long passwords asks a few
    /// questions, not 85.
    @Test func aLongerPasswordsQuestionCostsMoreSteps() throws {
        #expect([0, 8, 32, 33, 34, 100, 282, 283, 4096].map(DictionaryWords.steps(forQuestionOf:)) == [3, 3, 3, 3, 4, 37, 128, 128, 128])
        guard DictionaryWords.problem == nil else { return }
        let budget = MatchBudget()
        // Fresh each run, so that no kept answer is free: 80 + 16 + 4 = 100 bytes, 37 steps each.
        let hex = String(UInt64.random(in: 0..<UInt64.max), radix: 16)
        let fresh = String(repeating: "0", count: 16 - hex.count) + hex
        let outcomes = (0..<8).map { index in
            judge(.notDictionaryWord, String(repeating: "q7Zk", count: 20) + fresh + "-\(index)-x", budget: budget)
        }
        // Six of them spend 222 of the 256 steps; the seventh and eighth cannot be paid.
        #expect(outcomes.map { $0 == .tooCostly } == [false, false, false, false, false, false, true, true])
    }

    @Test func dictionaryWordsThroughCracklib() throws {
        if let problem = DictionaryWords.problem {
            // Without libpwquality the rule says what to install, and refuses.
            #expect(problem.contains("apt-get install"))
            #expect(Rule.Check.notDictionaryWord.missingRequirement == problem)
            return
        }
        #expect(judge(.notDictionaryWord, "password") == .fails)
        #expect(judge(.notDictionaryWord, "elephant") == .fails)
        #expect(judge(.notDictionaryWord, "tnahpele") == .fails)
        #expect(judge(.notDictionaryWord, "vq7Rk2Zt9Wm4Lx8") == .passes)
        #expect(judge(.notDictionaryWord, "correct horse battery staple") == .passes)
        #expect(judge(.notDictionaryWord, "a\u{0}b") == .passes)
    }

    @Test func aSecretFieldsMinimumFollowsNISTUnlessTheFormHasASecondFactor() throws {
        func form(minimum: Int, maximum: Int = 64, secondFactor: Bool = false) throws(FormDefinitionError) -> FormDefinition {
            let password = FieldDefinition(name: "password", rules: [
                Rule(.minCodePoints(minimum), failure: Message("p.short", "")), Rule(.maxCodePoints(maximum), failure: Message("p.long", "")),
            ], isSecret: true)
            return try FormDefinition(kind: "k", fields: [FieldDefinition(name: "username"), password],
                                      submit: SubmitAction(kind: .registerAccount(usernameField: "username", passwordField: "password")),
                                      hasSecondFactor: secondFactor)
        }
        #expect(throws: FormDefinitionError.passwordMinimumTooLow(kind: "k", field: "password", minimum: 14, least: 15)) { try form(minimum: 14) }
        #expect(throws: FormDefinitionError.passwordMinimumTooLow(kind: "k", field: "password", minimum: 7, least: 8)) {
            try form(minimum: 7, secondFactor: true)
        }
        #expect(throws: FormDefinitionError.passwordMaximumTooLow(kind: "k", field: "password", maximum: 63)) { try form(minimum: 15, maximum: 63) }
        _ = try form(minimum: 15)
        _ = try form(minimum: 8, secondFactor: true)
    }
}
