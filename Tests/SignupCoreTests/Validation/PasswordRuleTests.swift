import Foundation
import Testing
import CICU
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

    @Test func aListsLinesEndWhereACharacterIsANewline() {
        let text = "a\nb\r\nc\rd\u{0B}e\u{0C}f\u{85}g\u{2028}h\u{2029}i\n\n\u{301}j\r\n\u{2028}k é l\t"
        #expect(PasswordList.lines(of: text) == ["a", "b", "c", "d", "e", "f", "g", "h", "i", "\u{301}j", "k é l\t"])
        #expect(PasswordList.lines(of: text) == text.split(whereSeparator: \.isNewline).map(String.init))
        #expect(PasswordList.lines(of: "\n\r\n") == [])
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

    /// The lowering similarity and the pattern check share gives `lowercased()`'s code points,
    /// whole or cut at a count, for 3 000 random values mixing ASCII capitals, code points that
    /// lower to two (`İ`), that lower by context in other libraries (`Σ`), that do not lower
    /// (`ß`, CJK) and combining marks; and an empty value gives none.
    @Test func lowerCasedScalarsAreThoseOfLowercased() {
        let pool: [Character] = ["A", "z", "Q", "7", "-", " ", "İ", "Σ", "ς", "ß", "Ǆ", "Ａ", "张", "\u{301}", "é", "Ω", "ﬃ"]
        var random = SeededGenerator(seed: 58)
        for _ in 0..<3_000 {
            let value = String((0..<Int.random(in: 0...40, using: &random)).map { _ in pool.randomElement(using: &random)! })
            let lowered = value.lowercased().unicodeScalars.map(\.value)
            #expect(LowerCasedScalars.with(value) { Array($0) } == lowered, "\(value)")
            let limit = Int.random(in: 0...50, using: &random)
            #expect(LowerCasedScalars.with(value, atMost: limit) { Array($0) } == Array(lowered.prefix(limit)), "\(value) at most \(limit)")
        }
        #expect(LowerCasedScalars.with("") { $0.count } == 0)
    }

    /// The ranges that spare most code points a look-up hold every code point beyond ASCII that
    /// changes when lower-cased, by the running Unicode tables; and they are in order.
    @Test func everyCodePointThatChangesWhenLowercasedIsInTheCasedRanges() {
        let missed = (UInt32(0x80)...0x10FFFF).filter { value in
            guard let scalar = Unicode.Scalar(value) else { return false }
            return scalar.properties.changesWhenLowercased && !LowerCasedScalars.mayChangeWhenLowercased(scalar)
        }
        #expect(missed.map { String($0, radix: 16) } == [])
        let ranges = LowerCasedScalars.casedRanges
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound })
        #expect(LowerCasedScalars.mayChangeWhenLowercased("Ａ") && !LowerCasedScalars.mayChangeWhenLowercased("张"))
    }

    /// Similarity lowers each code point by its `lowercaseMapping`, as `lowercased()` lowers a
    /// string: every code point's mapping is its lowered string, and a string's is theirs in turn;
    /// one that does not change when lowercased maps to itself.
    @Test func similarityLowersAsLowercasedDoes() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if String(scalar).lowercased() != scalar.properties.lowercaseMapping { Issue.record("U+\(String(value, radix: 16))") }
            // A code point that does not change when lowercased is taken as it is.
            if !scalar.properties.changesWhenLowercased && scalar.properties.lowercaseMapping != String(scalar) {
                Issue.record("U+\(String(value, radix: 16)) changes")
            }
        }
        let mixed = "ΣΟΦΊΑ İstanbul ǅemal ＡＮＮ Straße ΣΑΣ"
        #expect(mixed.unicodeScalars.map(\.properties.lowercaseMapping).joined() == mixed.lowercased())
        #expect(judge(.notSimilarTo("other"), "İSTANBUL-ǄEMAL-1", others: ["i̇stanbul-ǆemal"]) == .fails)
        #expect(judge(.notSimilarTo("other"), "ΣΟΦΊΑ-ΣΟΦΊΑ", others: ["σοφία-σοφία"]) == .fails)
    }

    @Test func similarityCostIsBoundedWhateverTheLengths() {
        // Each side is read by its first 256 code points: a megabyte costs no more than that.
        let huge = String(repeating: "ab", count: 1 << 19)
        #expect(PasswordSimilarity.isTooSimilar(huge, to: huge, within: MatchBudget()) == true)
        // Two candidates of 256 × 256 cells cost 9 steps of a message's budget; a spent budget judges nothing.
        let budget = MatchBudget(stepsPerMessage: 11)
        #expect(PasswordSimilarity.isTooSimilar(huge, to: "xyz" + huge, within: budget) == true && budget.remaining == 2)
        #expect(PasswordSimilarity.isTooSimilar(huge, to: huge, within: budget) == nil && budget.remaining == 2)
    }

    /// The banded edit distance and the stopping common run answer as the whole tables do, on
    /// random pairs from a small alphabet (so that near pairs are common), of every length up to 40.
    @Test func similarityMeasuresAnswerAsTheWholeTablesDo() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt32] = [97, 98, 99, 100, 0x4E00]
        // Up to 70 code points, two thirds of them ASCII alone: both the word-wide measure (up
        // to 64 ASCII) and the banded table.
        // A third of them from the whole Latin alphabet, so that many pairs share no neighbours.
        func word() -> [UInt32] {
            let letters = [alphabet, Array(alphabet.prefix(4)), Array(97...122)].randomElement(using: &generator)!
            return (0..<Int.random(in: 0...70, using: &generator)).map { _ in letters.randomElement(using: &generator)! }
        }
        var measuredByWords = 0
        var disagreements: [String] = []
        for _ in 0..<3_000 {
            let (left, right) = (word(), word())
            let distance = Self.wholeEditDistance(left, right), run = Self.wholeLongestRun(left, right)
            left.withUnsafeBufferPointer { leftBuffer in
                right.withUnsafeBufferPointer { rightBuffer in
                    for limit in [1, 3, 5, 80] where PasswordSimilarity.editDistance(leftBuffer, rightBuffer, isBelow: limit) != (distance < limit) {
                        disagreements.append("distance \(left) \(right) below \(limit)")
                    }
                    if let measured = PasswordSimilarity.bitParallelDistance(leftBuffer, rightBuffer) {
                        measuredByWords += 1
                        if measured != distance { disagreements.append("distance \(left) \(right) measured \(measured)") }
                    }
                    for length in [0, 1, 5, 9, left.count, right.count, left.count + right.count] where PasswordSimilarity.hasCommonRun(leftBuffer, rightBuffer, longerThanHalfOf: length) != (run * 2 > length) {
                        disagreements.append("run \(left) \(right) over half of \(length)")
                    }
                }
            }
        }
        #expect(disagreements == [])
        #expect(measuredByWords > 1_000)
        let kitten = Array("kitten".unicodeScalars.map(\.value)), sitting = Array("sitting".unicodeScalars.map(\.value))
        kitten.withUnsafeBufferPointer { kitten in
            sitting.withUnsafeBufferPointer { sitting in
                #expect(PasswordSimilarity.editDistance(kitten, sitting, isBelow: 4) && !PasswordSimilarity.editDistance(kitten, sitting, isBelow: 3))
            }
        }
    }

    private static func wholeEditDistance(_ left: [UInt32], _ right: [UInt32]) -> Int {
        var previous = Array(0...right.count)
        for (row, leftScalar) in left.enumerated() {
            var current = [row + 1]
            for (column, rightScalar) in right.enumerated() {
                current.append(min(previous[column] + (leftScalar == rightScalar ? 0 : 1), previous[column + 1] + 1, current[column] + 1))
            }
            previous = current
        }
        return previous[right.count]
    }

    private static func wholeLongestRun(_ left: [UInt32], _ right: [UInt32]) -> Int {
        var longest = 0
        for start in left.indices {
            for other in right.indices {
                var length = 0
                while start + length < left.count, other + length < right.count, left[start + length] == right[other + length] { length += 1 }
                longest = max(longest, length)
            }
        }
        return longest
    }

    /// The word, reversed, with digits and symbols for letters, and with anything but letters
    /// around it, is refused; a passphrase, two words run together, or a letter beyond a to z is not.
    @Test func dictionaryWordsAsTheShippedDictionaryFindsThem() {
        let refused = ["password", "Elephant", "tnahpele", "3l3phant", "p4$$w0rd", "Elephant2024!!!", "  elephant  ",
                       "responsibilities1", "w1ndow", "wind0w", "sunsh1ne", "!!!international!!!", "hell0", "elephant\u{0}", "4pple", "3l3ph4nt2"]
        let passed = ["vq7Rk2Zt9Wm4Lx8", "correct horse battery staple", "elephantgiraffe", "eléphant", "ele-phant",
                      "a\u{0}b", "", "2024!!!", "cat", "\u{1D41E}lephant", "el2phant"]
        #expect(refused.filter { judge(.notDictionaryWord, $0) != .fails } == [])
        #expect(passed.filter { judge(.notDictionaryWord, $0) != .passes } == [])
    }

    /// A question spends nothing of the message's budget, whatever the value's length.
    @Test func aDictionaryQuestionCostsNoSteps() {
        let budget = MatchBudget(stepsPerMessage: 1)
        let long = String(repeating: "Zz9!", count: 250_000) + "elephant" + String(repeating: "9", count: 1_000_000)
        #expect(judge(.notDictionaryWord, long, budget: budget) == .passes)
        #expect(judge(.notDictionaryWord, "2024elephant" + String(repeating: "!", count: 1_000_000), budget: budget) == .fails)
        #expect(budget.remaining == 1)
    }

    /// The shipped dictionary is sorted by byte, as its binary search needs, and holds only words
    /// of four or more letters a to z.
    @Test func theShippedDictionaryIsSortedLowerCaseWords() {
        let words = DictionaryWords.shippedWords.split(separator: "\n")
        #expect(words.count == DictionaryWords.words.count && words.count == 81_712)
        #expect(zip(words, words.dropFirst()).allSatisfy { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(words.allSatisfy { $0.utf8.count >= 4 && $0.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) } })
        #expect(DictionaryWords.words.longest == words.map(\.utf8.count).max())
        #expect(words.allSatisfy { DictionaryWords.words.contains(Array($0.utf8)) })
        #expect(!DictionaryWords.words.contains(Array("zzzzzzzzzzzzzzzzzzzzz".utf8)) && !DictionaryWords.words.contains(Array("".utf8)))
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

extension PasswordRuleTests {
    /// What the start-up report names: nothing for the built-in kinds on a machine with ICU (the
    /// build needs it), found without loading it; a list file that cannot be read, by its rule.
    @Test func theStartUpReportNamesOnlyWhatThisMachineLacks() throws {
        #expect(signup_icu_is_installed() == 1)
        #expect(FormDefinition.secureSignup.missingRequirements == [])
        let unreadable = PasswordList(readingOnFirstUse: "/nonexistent/common.txt")
        let password = FieldDefinition(name: "password", rules: [
            Rule(.notCommonPassword(unreadable), failure: Message("p.common", "")), Rule(.notDictionaryWord, failure: Message("p.word", "")),
            Rule(.scriptRestriction(.highlyRestrictive), failure: Message("p.scripts", "")),
        ])
        let form = try FormDefinition(kind: "k", fields: [FieldDefinition(name: "username"), password],
                                      submit: SubmitAction(kind: .registerAccount(usernameField: "username", passwordField: "password")))
        #expect(form.missingRequirements == [
            "form kind k, field password: rule p.common fails every value (rule.unavailable): the common-password list "
                + "/nonexistent/common.txt ($SIGNUP_PASSWORD_LIST) cannot be read; unset it to use the shipped list",
        ])
    }
}
